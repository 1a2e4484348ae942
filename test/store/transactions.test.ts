// The Db contract (db-contract.ts) on the SQLite driver: one writer, group commit, the writer thread.
import fs from 'node:fs';
import path from 'node:path';
import { SqliteDb } from '../../src/store/sqlite.js';
import { tempDir } from '../helpers/gateway.js';
import { dbContract } from './db-contract.js';

dbContract('SqliteDb', async () => {
  const dir = tempDir();
  const db = await SqliteDb.open(path.join(dir, 't.db'));
  return { db, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
});
