// A reader thread: runs heavy reads (search, ranked lists) on its own read-only connection, so they use
// another core instead of holding the event loop while other requests wait.
import { workerData } from 'node:worker_threads';
import { serveThread } from '../threads.js';
import type { ReaderCall } from './reader-pool.js';
import type { SqliteTuning } from './sqlite-tuning.js';
import { Connection } from './sqlite-connection.js';

const { file, tuning } = workerData as { file: string; tuning?: SqliteTuning };
const conn = Connection.open(file, { readonly: true, mmap: true, tuning });

/** SQL texts by the number the main thread gave them (reader-pool.ts). */
const texts = new Map<number, string>();

serveThread(
  ([sid, sql, params]: ReaderCall) => {
    if (sql !== undefined && sid) texts.set(sid, sql);
    return conn.all(sql ?? texts.get(sid)!, params);
  },
  () => conn.close(),
);
