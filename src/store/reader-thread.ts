// A reader thread: runs heavy reads (search, ranked lists) on its own read-only connection, so they use
// another core instead of holding the event loop while other requests wait.
import { workerData } from 'node:worker_threads';
import { serveThread } from '../threads.js';
import type { Params } from './db.js';
import type { SqliteTuning } from './sqlite-tuning.js';
import { Connection } from './sqlite-connection.js';

const { file, tuning } = workerData as { file: string; tuning?: SqliteTuning };
const conn = Connection.open(file, { readonly: true, mmap: true, tuning });

serveThread(
  ([sql, params]: [string, Params | undefined]) => conn.all(sql, params),
  () => conn.close(),
);
