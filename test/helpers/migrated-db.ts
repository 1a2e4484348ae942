// A migrated database of its own in a temporary directory, for tests of stores without a gateway.
import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '../../src/store/migrate.js';
import { SqliteDb } from '../../src/store/sqlite.js';
import { tempDir } from './gateway.js';

export interface MigratedDb {
  db: SqliteDb;
  /** Closes the database and removes its directory. */
  remove(): Promise<void>;
}

export async function migratedDb(): Promise<MigratedDb> {
  const dir = tempDir();
  const db = await SqliteDb.open(path.join(dir, 'gateway.db'));
  await migrate(db);
  return {
    db,
    remove: async () => {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
