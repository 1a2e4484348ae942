// The checkpoint thread: keeps the WAL short without the writer ever checkpointing (a checkpoint inside a
// COMMIT copied thousands of pages and synced the file: 40–130 ms stalls of every write under a steady load).
// Every 100 ms a PASSIVE checkpoint copies what it can without waiting for, or blocking, anyone. But while
// commits keep coming, such a checkpoint never ends level with the last frame, and SQLite only starts the WAL
// over after one that did: the WAL grew without bound (730 MB after the memory bench), and every read got
// slower with it. So once the WAL holds RESTART_FRAMES, a RESTART checkpoint takes the write lock for the
// little the passive ones left, and the next write starts the WAL over.
import { workerData } from 'node:worker_threads';
import { serveThread } from '../threads.js';
import type { SqliteTuning } from './sqlite-tuning.js';
import { Connection } from './sqlite-connection.js';

const INTERVAL_MS = 100;
/**
 * 256 MB of 4 KB pages (a few seconds of the heaviest write load measured): a restart stalls writes for two
 * file syncs and the lock hand-over (20–80 ms here), so it should be rare. After a restart the writer cuts the
 * file back to journal_size_limit (sqlite-connection.ts).
 */
const RESTART_FRAMES = 65536;

const { file, restartFrames = RESTART_FRAMES, tuning } = workerData as { file: string; restartFrames?: number; tuning?: SqliteTuning };
// A checkpoint copies WAL frames to the file without the page cache; the connection reads only the schema.
const CHECKPOINT_CACHE_KB = 256;
const conn = Connection.open(file, { readonly: false, tuning: tuning && { ...tuning, cacheKb: Math.min(tuning.cacheKb, CHECKPOINT_CACHE_KB) } });

function checkpoint(mode: 'PASSIVE' | 'RESTART'): { log: number; checkpointed: number } {
  return (conn.raw.pragma(`wal_checkpoint(${mode})`) as { busy: number; log: number; checkpointed: number }[])[0];
}

const timer = setInterval(() => {
  try {
    if (checkpoint('PASSIVE').log >= restartFrames) checkpoint('RESTART');
  } catch {
    // busy or locked by another process: the next round tries again
  }
}, INTERVAL_MS);

serveThread(
  () => null,
  () => {
    clearInterval(timer);
    conn.close();
  },
);
