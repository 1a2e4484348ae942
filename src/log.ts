// Structured logs (pino). Secrets never reach a log line: credentials live in headers we never log, query
// strings are dropped from logged URLs, and these paths are redacted as a second line of defence.
import { pino, type Logger as PinoLogger, type DestinationStream } from 'pino';

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
  'headers["payment-signature"]',
  'headers["x-payment"]',
  'value',
  '*.value',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACT, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 2, sync: false }),
  );
}
