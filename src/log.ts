// Structured logs (pino). Secrets never reach a log line: credentials live in headers we never log, query
// strings are dropped from logged URLs, and these paths are redacted as a second line of defence.
import { pino, type Logger as PinoLogger, type DestinationStream } from 'pino';
import { isoTime } from './clock.js';
import { LineBuffer } from './log-lines.js';

export type Logger = PinoLogger;

const REDACT = [
  'secret',
  '*.secret',
  'password',
  '*.password',
  'api_key',
  '*.api_key',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-revenue-key"]',
  'headers["payment-signature"]',
  'headers["x-payment"]',
  'value',
  '*.value',
];

/** Lines gather up to this many bytes before a write (a write per request line cost 7% of a busy event loop). */
const BUFFER_BYTES = 4096;
/** A quiet gateway's lines still go out within this long. */
const FLUSH_MS = 500;

/** pino's isoTime, formatted through isoTime (one Date formatting per second, not per line). */
const isoTimestamp = (): string => `,"time":"${isoTime(Date.now())}"`;

const INFO = 30;

/**
 * Writes the access line of one response, `{"level":30,"time":…,"id":…,"method":…,"route":…,"status":…,"ms":…,"msg":"request"}`,
 * as `log.info({ id, method, route, status, ms }, 'request')` would, to the same stream and in the same order as
 * the logger's other lines. Built here rather than by pino, whose general path (the object's keys walked, each
 * value stringified, hooks checked) cost a busy gateway several per cent for this one fixed shape.
 */
export function writeAccessLine(log: Logger, id: string, method: string, route: string, status: number, ms: number): void {
  if (log.levelVal > INFO) return;
  const stream = (log as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  stream.write(`{"level":30${isoTimestamp()},"id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":${status},"ms":${ms},"msg":"request"}\n`);
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const dest = destination ?? stderrBuffered();
  return pino({ level, base: undefined, redact: { paths: REDACT, censor: '[redacted]' }, timestamp: isoTimestamp }, dest);
}

let stderr: LineBuffer | null = null;

/** One buffered stderr stream per process, however many loggers write to it. */
function stderrBuffered(): DestinationStream {
  if (stderr) return stderr;
  const lines = (stderr = new LineBuffer(pino.destination({ dest: 2, sync: false }), BUFFER_BYTES));
  setInterval(() => lines.flush(), FLUSH_MS).unref();
  // Whatever is still buffered goes out when the process ends (sonic-boom writes synchronously then).
  process.once('exit', () => {
    try {
      lines.flushSync();
    } catch {
      // nothing more can be done for the last lines
    }
  });
  return lines;
}
