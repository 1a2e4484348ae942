// SQLite's share of resident memory is bounded per connection: the page cache (GATEWAY_SQLITE_CACHE_KB) on the
// writer, the event-loop reader and each reader thread, the bytes a reader thread maps (GATEWAY_SQLITE_MMAP_BYTES)
// and the statements a connection keeps prepared (GATEWAY_SQLITE_STATEMENTS, least recently used out first).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReaderPool } from '../../src/store/reader-pool.js';
import { Connection } from '../../src/store/sqlite-connection.js';
import { startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';

// Under GATEWAY_TEST_STORE=postgres the test gateways have no SQLite file: the running-gateway checks are the SQLite
// leg's, and the statement cache is checked on a file of its own.
const onPostgres = Boolean(process.env.TEST_PG_URL);
let gw: TestGateway | undefined;
const dir = tempDir();
const file = path.join(dir, 'statements.db');
beforeAll(async () => {
  Connection.open(file, { readonly: false }).close();
  if (!onPostgres) gw = await startGateway({ env: { GATEWAY_SQLITE_CACHE_KB: '3000', GATEWAY_SQLITE_MMAP_BYTES: '8388608', GATEWAY_READER_THREADS: '1' } });
});
afterAll(async () => {
  await gw?.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(onPostgres)('SQLite bounds of a running gateway', () => {
  it('gives the writer and the event-loop reader the configured page cache', async () => {
    // A PRAGMA goes to the writer; a SELECT of the pragma's table runs on the event-loop reader.
    expect(await gw!.gateway.db.get('PRAGMA cache_size')).toEqual({ cache_size: -3000 });
    expect(await gw!.gateway.db.get('SELECT cache_size FROM pragma_cache_size')).toEqual({ cache_size: -3000 });
  });

  it('gives a reader thread the page cache and the mapped bytes', async () => {
    // The gateway's reader threads are started as these are, with its configured bounds.
    const pool = await ReaderPool.start(path.join(gw!.dataDir, 'gateway.db'), 1, gw!.gateway.config.caches.sqlite);
    try {
      expect(await pool.all('PRAGMA mmap_size')).toEqual([{ mmap_size: 8388608 }]);
      expect(await pool.all('PRAGMA cache_size')).toEqual([{ cache_size: -3000 }]);
    } finally {
      await pool.stop();
    }
  });

  it('maps nothing with GATEWAY_SQLITE_MMAP_BYTES=0', async () => {
    const pool = await ReaderPool.start(path.join(gw!.dataDir, 'gateway.db'), 1, { ...gw!.gateway.config.caches.sqlite, mmapBytes: 0 });
    try {
      expect(await pool.all('PRAGMA mmap_size')).toEqual([{ mmap_size: 0 }]);
    } finally {
      await pool.stop();
    }
  });
});

describe('prepared statements kept by a connection', () => {
  it('keeps at most the bound, dropping the least recently used and preparing it again when it comes back', () => {
    const c = Connection.open(file, { readonly: true, tuning: { cacheKb: 100, mmapBytes: 0, statements: 2, wordsCacheBytes: 0 } });
    try {
      expect(c.all('SELECT 1 AS n')).toEqual([{ n: 1 }]);
      expect(c.all('SELECT 2 AS n')).toEqual([{ n: 2 }]);
      c.all('SELECT 1 AS n');
      expect(c.all('SELECT 3 AS n')).toEqual([{ n: 3 }]);
      expect(c.statements).toEqual(['SELECT 1 AS n', 'SELECT 3 AS n']);
      // The dropped one runs as before.
      expect(c.all('SELECT 2 AS n')).toEqual([{ n: 2 }]);
      expect(c.statements).toEqual(['SELECT 3 AS n', 'SELECT 2 AS n']);
    } finally {
      c.close();
    }
  });

  it('drops nothing on a statement that fails to prepare', () => {
    const c = Connection.open(file, { readonly: true, tuning: { cacheKb: 100, mmapBytes: 0, statements: 2, wordsCacheBytes: 0 } });
    try {
      c.all('SELECT 1 AS n');
      c.all('SELECT 2 AS n');
      expect(() => c.all('SELECT nope FROM nowhere')).toThrow(/no such table/);
      expect(c.statements).toEqual(['SELECT 1 AS n', 'SELECT 2 AS n']);
    } finally {
      c.close();
    }
  });
});
