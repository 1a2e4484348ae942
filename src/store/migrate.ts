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

/** One migration as a script: the whole file (triggers included) and its record, in a transaction of its own. */
const script = (m: Migration): string =>
  `BEGIN IMMEDIATE;\n${m.sql}\n;INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, '${m.name}', ${Date.now()});\nCOMMIT;`;

/** Applies pending migrations; returns the schema version now in force. */
export async function migrate(db: Db, migrations = readMigrations()): Promise<number> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const applied = async () => new Set((await db.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  let done = await applied();
  const pending = migrations.filter((m) => !done.has(m.version));
  if (pending.length > 1) {
    // A fresh database: every migration in one exec, still each in its own transaction, so they cost the writer one
    // round trip instead of one each (the CLI migrates while the main thread is busy loading modules). If one fails,
    // those before it stay applied, and the loop below takes the rest one by one and reports the failure.
    try {
      await db.exec(pending.map(script).join('\n'));
    } catch {
      await db.exec('ROLLBACK').catch(() => undefined);
    }
    done = await applied();
  }
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    try {
      await db.exec(script(m));
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
