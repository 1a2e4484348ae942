// The writer thread: owns the write connection and runs what the main thread sends (writer-loop.ts). Writes
// cost the main thread only a message; bursts that queue up while one runs are taken together.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { SqliteTuning } from './sqlite-tuning.js';
import { Connection } from './sqlite-connection.js';
import { WriterLoop } from './writer-loop.js';
import { serializeError, type Op } from './writer-protocol.js';

const port = parentPort!;

interface Target {
  file: string;
  tuning?: SqliteTuning;
}

function start({ file, tuning }: Target): void {
  let conn: Connection;
  try {
    conn = Connection.open(file, { readonly: false, tuning });
  } catch (err) {
    port.postMessage({ failed: serializeError(err) });
    return;
  }
  const loop = new WriterLoop(conn, () => setImmediate(() => port.close()));
  port.on('message', (ops: Op[]) => {
    let burst = ops;
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) burst = burst.concat(m.message as Op[]);
    const replies = loop.receive(burst);
    if (replies.length) port.postMessage(replies);
  });
  port.postMessage({ ready: true });
}

const given = workerData as Partial<Target> | null;
if (given?.file !== undefined) start(given as Target);
// Started before the configuration was read (EarlyWriter): the file comes in the first message.
else port.once('message', (target: Target) => start(target));
