// The async database interface every store uses (docs/architecture.md, "The store and its threads"). SQLite implements it today; a PostgreSQL
// driver can implement the same four calls later, so SQL stays portable (ON CONFLICT, RETURNING).

export type SqlValue = string | number | bigint | null | Buffer | Uint8Array;
export type Params = SqlValue[] | Record<string, SqlValue>;

export interface RunResult {
  /** Rows changed by the statement. */
  changes: number;
  /** Row id of the last insert (SQLite), when the statement inserted. */
  lastId: number;
}

/**
 * `heavy`: a read that can take a millisecond or more (search, ranked lists); outside a transaction it may
 * run on a reader thread so it does not hold the event loop.
 */
export interface ReadOptions {
  heavy?: boolean;
}

export interface Queryable {
  get<T = Record<string, unknown>>(sql: string, params?: Params, opts?: ReadOptions): Promise<T | undefined>;
  all<T = Record<string, unknown>>(sql: string, params?: Params, opts?: ReadOptions): Promise<T[]>;
  run(sql: string, params?: Params): Promise<RunResult>;
}

/** One statement of a batch; `rows` asks for its rows, `expectRow` fails the whole batch when it returns none. */
export interface BatchStatement {
  sql: string;
  params?: Params;
  rows?: boolean;
  expectRow?: boolean;
}

/** Why a batch was rolled back: `index` is the statement that failed (or returned no row: code BATCH_NO_ROW). */
export class BatchError extends Error {
  constructor(
    message: string,
    readonly index: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * `lockKey`: the transaction's check-then-act concerns only rows that this key's transactions change (one rate
 * window's hits, one agent's XP), so it need wait only for transactions of the same key and for those without a
 * key, and runs beside the other keys'. On PostgreSQL that is a lock of the key beside a shared hold of the
 * writers' lock; SQLite's one writer serialises every transaction anyway. A nested transaction joins the outer
 * one and takes no lock of its own, so a keyed transaction must not call code that checks then acts on other rows.
 */
export interface TxOptions {
  lockKey?: string;
}

export interface Db extends Queryable {
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * Transactions are serialised, so statements of `fn` never interleave with another transaction's
   * (with `lockKey`, with another of the same key: TxOptions).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: TxOptions): Promise<T>;
  /**
   * Runs statements all or nothing without a round trip between them: each result is its rows (`rows`) or
   * its RunResult. A failure rejects with a BatchError naming the statement. Inside a transaction it joins it.
   * `opts` as for transaction().
   */
  batch(stmts: BatchStatement[], opts?: TxOptions): Promise<unknown[]>;
  /**
   * Runs `fn` outside any transaction context, for work that merely starts from inside one (a timer, a
   * queue kick) and must queue behind it rather than join it.
   */
  detach<T>(fn: () => T): T;
  /** Executes several statements separated by semicolons (migrations only). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  readonly path: string;
  /** Which SQL the database speaks, for the few statements that differ (full-text search, JSON functions). */
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Calls `fn` when another connection (another instance) signals `channel` (PostgreSQL's LISTEN/NOTIFY), and after
   * a reconnect, when signals may have been missed; returns the function that stops it. Absent on SQLite, whose
   * readers poll. A signal carries no data: the listener reads what changed.
   */
  listen?(channel: string, fn: () => void): Promise<() => void>;
}

/**
 * True when a driver error is a uniqueness or other integrity constraint violation: SQLite's SQLITE_CONSTRAINT_*
 * codes, or PostgreSQL's SQLSTATE class 23 (unique, check, not null, foreign key).
 */
export const isConstraintError = (err: unknown): boolean => {
  const code = typeof err === 'object' && err !== null ? String((err as { code?: unknown }).code) : '';
  return code.startsWith('SQLITE_CONSTRAINT') || /^23[0-9A-Z]{3}$/.test(code);
};
