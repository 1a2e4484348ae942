// Messages between SqliteDb (main thread) and the writer thread that owns the write connection.
import { BatchError, type Params } from './db.js';

/**
 * One statement; `rows` returns its rows (SELECT, RETURNING), otherwise `{changes, lastId}`. The SQL text
 * travels once with its number `sid` and later only as the number (0: no number, the text every time).
 */
export interface Stmt {
  sid: number;
  sql?: string;
  params?: Params;
  rows: boolean;
  /** In a batch: no row returned fails the batch. */
  expectRow?: boolean;
}

export type Op =
  /** A statement on its own: group-committed with the others of its burst. */
  | { id: number; op: 'stmt'; stmt: Stmt }
  /** Statements applied all or nothing (a savepoint), group-committed like a statement. */
  | { id: number; op: 'batch'; stmts: Stmt[] }
  /** Opens a transaction once the writer is free and holds the writer until `end`. */
  | { id: number; op: 'begin' }
  /** A statement (or batch) inside the transaction the writer holds. */
  | { id: number; op: 'tx'; stmt: Stmt }
  | { id: number; op: 'tx-batch'; stmts: Stmt[] }
  | { id: number; op: 'end'; commit: boolean }
  /** Several statements in one string (migrations), alone. */
  | { id: number; op: 'exec'; sql: string }
  /** Answers once everything sent before it has run. */
  | { id: number; op: 'barrier' }
  /** Checkpoints the WAL, closes the connection and ends the thread. */
  | { id: number; op: 'close' };

/** The operations that run inside an open transaction; any other waits until it ends. */
export const IN_TRANSACTION: ReadonlySet<Op['op']> = new Set(['tx', 'tx-batch', 'end']);

/** Replies travel in arrays, one message per burst: [id, ok, value or SerializedError]. */
export type Reply = [id: number, ok: boolean, value: unknown];

export interface SerializedError {
  message: string;
  code?: string;
  /** Set when a statement of a batch failed: which one. */
  index?: number;
}

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { message: String(err) };
  const { code, index } = err as { code?: unknown; index?: unknown };
  return { message: err.message, ...(typeof code === 'string' ? { code } : {}), ...(typeof index === 'number' ? { index } : {}) };
}

/** An Error carrying the driver's `code` (isConstraintError and callers read it), or a BatchError. */
export function reviveError(e: SerializedError): Error {
  if (e.index !== undefined) return new BatchError(e.message, e.index, e.code);
  return Object.assign(new Error(e.message), e.code ? { code: e.code } : {});
}
