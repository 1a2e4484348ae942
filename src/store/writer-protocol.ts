// Messages between SqliteDb (main thread) and the writer thread that owns the write connection.
import type { Params } from './db.js';

/**
 * One statement; `rows` returns its rows (SELECT, RETURNING), otherwise `{changes, lastId}`. The SQL text
 * travels once with its number `sid` and later only as the number (0: no number, the text every time).
 */
export interface Stmt {
  sid: number;
  sql?: string;
  params?: Params;
  rows: boolean;
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
}

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { message: String(err) };
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? { message: err.message, code } : { message: err.message };
}

/** An Error carrying the driver's `code` (isConstraintError and callers read it). */
export const reviveError = (e: SerializedError): Error => Object.assign(new Error(e.message), e.code ? { code: e.code } : {});
