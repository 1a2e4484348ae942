// The async database interface every store uses (DESIGN §5). SQLite implements it today; a PostgreSQL
// driver can implement the same four calls later, so SQL stays portable (ON CONFLICT, RETURNING).

export type SqlValue = string | number | bigint | null | Buffer | Uint8Array;
export type Params = SqlValue[] | Record<string, SqlValue>;

export interface RunResult {
  /** Rows changed by the statement. */
  changes: number;
  /** Row id of the last insert (SQLite), when the statement inserted. */
  lastId: number;
}

export interface Queryable {
  get<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T | undefined>;
  all<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]>;
  run(sql: string, params?: Params): Promise<RunResult>;
}

export interface Db extends Queryable {
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * Transactions are serialised, so statements of `fn` never interleave with another transaction's.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` outside any transaction context, for work that merely starts from inside one (a timer, a
   * queue kick) and must queue behind it rather than join it.
   */
  detach<T>(fn: () => T): T;
  /** Executes several statements separated by semicolons (migrations only). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  readonly path: string;
}
