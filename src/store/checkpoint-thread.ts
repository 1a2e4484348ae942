// The checkpoint thread: folds the WAL back into the database file every quarter second. In the committing
// connection (SQLite's default) a checkpoint ran inside a COMMIT on the event loop, copying a thousand pages
// and syncing the file: a 10–30 ms stall every few hundred commits, and a third of the average commit's cost.
// PASSIVE never waits for, or blocks, the writer or readers.
import { workerData } from 'node:worker_threads';
import { serveThread } from '../threads.js';
import { Connection } from './sqlite-connection.js';

const INTERVAL_MS = 250;
const conn = Connection.open((workerData as { file: string }).file, { readonly: false });
const timer = setInterval(() => {
  try {
    conn.exec('PRAGMA wal_checkpoint(PASSIVE);');
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
