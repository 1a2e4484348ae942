// A suite run on a freshly migrated database of each store: SQLite in a temporary directory, and PostgreSQL on a
// throwaway server of its own when the binaries are installed (test/helpers/postgres.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { migratePostgres } from '../../src/store/pg-migrate.js';
import { PgDb } from '../../src/store/postgres.js';
import { migratedDb, type MigratedDb } from './migrated-db.js';
import { hasPostgres, startPostgres, type TestPostgres } from './postgres.js';

/** `suite` registers its tests; `db()` is the store's database once the suite's hooks run. */
export function onEachStore(title: string, suite: (db: () => Db) => void): void {
  describe(`${title} on SQLite`, () => {
    let m: MigratedDb | undefined;
    beforeAll(async () => {
      m = await migratedDb();
    });
    afterAll(() => m?.remove());
    suite(() => m!.db);
  });
  describe.skipIf(!hasPostgres)(`${title} on PostgreSQL`, () => {
    let server: TestPostgres | undefined;
    let db: PgDb | undefined;
    beforeAll(async () => {
      server = await startPostgres();
      db = await PgDb.open(await server.createDatabase('suite'));
      await migratePostgres(db);
    }, 60_000);
    afterAll(async () => {
      await db?.close();
      await server?.stop();
    });
    suite(() => db!);
  });
}

/**
 * True on the suite's PostgreSQL pass (GATEWAY_TEST_STORE=postgres): tests of the analysis engines alone (labelled
 * corpora, no store) skip it, since the SQLite pass has run them on the same code.
 */
export const ENGINES_ONLY_ONCE = process.env.GATEWAY_TEST_STORE === 'postgres';
