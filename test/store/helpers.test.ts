// The helper threads of a long-running gateway: heavy reads on reader threads give what a read here gives
// (blobs as Buffers, only committed data), and the checkpoint thread keeps the WAL from growing without bound
// under a steady stream of commits, restarting it once it passes the threshold.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../src/store/sqlite-connection.js';
import { SqliteDb } from '../../src/store/sqlite.js';
import { eventually } from '../helpers/eventually.js';
import { tempDir } from '../helpers/gateway.js';

let db: SqliteDb;
const dir = tempDir();
const file = path.join(dir, 'h.db');
beforeAll(async () => {
  db = await SqliteDb.open(file);
  db.startHelpers({ readerThreads: 1, checkpointAfterMs: 0, restartFrames: 50 });
  await db.exec('CREATE TABLE h (k INTEGER PRIMARY KEY, name TEXT NOT NULL, data BLOB)');
});
afterAll(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Frames in the WAL right now (a passive checkpoint from a connection of the test's own reports them). */
function walFrames(): number {
  const c = Connection.open(file, { readonly: false });
  try {
    return (c.raw.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0].log;
  } finally {
    c.close();
  }
}

describe('helper threads', () => {
  it('heavy reads run on a reader thread and answer as a read here does', async () => {
    await db.run('INSERT INTO h (k, name, data) VALUES (1, ?, ?)', ['one', Buffer.from([1, 2, 3])]);
    // The first heavy read starts the reader threads and runs here; later ones go to a thread.
    const here = await db.all<{ k: number; name: string; data: Buffer }>('SELECT * FROM h', [], { heavy: true });
    const threaded = await eventually(async () => {
      const rows = await db.all<{ k: number; name: string; data: Buffer }>('SELECT * FROM h', [], { heavy: true });
      expect(Buffer.isBuffer(rows[0].data)).toBe(true);
      return rows;
    });
    expect(threaded).toEqual(here);
    expect(threaded[0].data.equals(Buffer.from([1, 2, 3]))).toBe(true);
    // A write is seen by the next heavy read; an error reaches the caller.
    await db.run("INSERT INTO h (k, name) VALUES (2, 'two')");
    expect((await db.all<{ k: number }>('SELECT k FROM h ORDER BY k', [], { heavy: true })).map((r) => r.k)).toEqual([1, 2]);
    await expect(db.all('SELECT nope FROM h', [], { heavy: true })).rejects.toThrow(/no such column/);
  });

  it('the checkpoint thread keeps restarting the WAL under a steady stream of commits', async () => {
    let written = 0;
    for (let i = 0; i < 40; i++) {
      // Each round is a commit of about ten pages, with a pause for the thread to come round.
      await Promise.all(Array.from({ length: 10 }, (_, j) => db.run('INSERT INTO h (name, data) VALUES (?, ?)', [`r${i}-${j}`, Buffer.alloc(3000, i)])));
      written += 10;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM h'))?.n).toBe(written + 2);
    // Hundreds of frames were written. Once the thread has checkpointed past the threshold, the next write
    // starts the WAL over: a WAL that never restarted would still hold every frame.
    await eventually(
      async () => {
        await db.run('INSERT INTO h (name) VALUES (?)', ['probe']);
        expect(walFrames()).toBeLessThan(50);
      },
      10_000,
      100,
    );
  });
});
