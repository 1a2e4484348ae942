// Numbered SQL migrations (src/store/migrations/NNN_name.sql), each applied once in its own transaction.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.js';
import { projectRoot } from '../paths.js';

export const MIGRATIONS_DIR = path.join(projectRoot(fileURLToPath(import.meta.url)), 'src', 'store', 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** Applies pending migrations; returns the schema version now in force. */
export async function migrate(db: Db, migrations = readMigrations()): Promise<number> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const done = new Set((await db.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    // exec runs the whole file (triggers included) inside one transaction.
    try {
      await db.exec(
        `BEGIN IMMEDIATE;\n${m.sql}\n;INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, '${m.name}', ${Date.now()});\nCOMMIT;`,
      );
    } catch (err) {
      await db.exec('ROLLBACK').catch(() => undefined);
      // Another gateway process on the same database may have applied it first.
      if (await db.get('SELECT 1 FROM schema_migrations WHERE version = ?', [m.version])) continue;
      throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
    }
  }
  const row = await db.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
  return row?.v ?? 0;
}
