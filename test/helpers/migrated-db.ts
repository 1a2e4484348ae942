// A migrated database of its own in a temporary directory, for tests of stores without a gateway.
import fs from 'node:fs';
import path from 'node:path';
import { migrate, type Migration } from '../../src/store/migrate.js';
import { SqliteDb } from '../../src/store/sqlite.js';
import { tempDir } from './gateway.js';

export interface MigratedDb {
  db: SqliteDb;
  /** Closes the database and removes its directory. */
  remove(): Promise<void>;
}

/** `migrations`: only these (say, those before the one under test); all of them by default. */
export async function migratedDb(migrations?: Migration[]): Promise<MigratedDb> {
  const dir = tempDir();
  const db = await SqliteDb.open(path.join(dir, 'gateway.db'));
  await migrate(db, migrations);
  return {
    db,
    remove: async () => {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
