// The SQLite driver behind the Db interface (better-sqlite3: synchronous statements, see docs/decisions/durable-work.md).
// Writes go to the writer thread (writer-thread.ts), which owns the one write connection and group-commits
// the statements of each burst; reads run here on a read-only connection that in WAL mode never waits for
// the writer and never sees uncommitted data. The Db interface stays async, so a PostgreSQL driver can
// implement it later.
import fs from 'node:fs';
import path from 'node:path';
import type { SqliteTuning } from './sqlite-tuning.js';
import type { BatchStatement, Db, Params, Queryable, ReadOptions, RunResult, TxOptions } from './db.js';
import { HelperThreads, type HelperOptions } from './helper-threads.js';
import { Connection } from './sqlite-connection.js';
import { TxScope } from './tx-scope.js';
import { WriterClient, type EarlyWriter } from './writer-client.js';

const isRead = (sql: string): boolean => /^\s*select\b/i.test(sql);

/** Runs a synchronous read as the Db's promise: errors reject rather than throw. */
function promised<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

const first = <T>(rows: T[]): T | undefined => rows[0];

export class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  private readonly scope = new TxScope();
  private savepoints = 0;
  private closed = false;
  private helpers: HelperThreads | null = null;
  /** What a transaction's callback receives: every statement goes into the open transaction. */
  private readonly tx: Queryable = {
    get: <T>(sql: string, params?: Params) => this.inTx<T[]>(sql, params, true).then(first),
    all: <T>(sql: string, params?: Params) => this.inTx<T[]>(sql, params, true),
    run: (sql: string, params?: Params) => this.inTx<RunResult>(sql, params, false),
  };

  private constructor(
    readonly path: string,
    private readonly writer: WriterClient,
    /** null for an in-memory database, which is private to its one (writer) connection. */
    private readonly reader: Connection | null,
    private readonly tuning?: SqliteTuning,
  ) {}

  /**
   * `tuning` bounds every connection (this one, the writer's, the helper threads'); the defaults when absent.
   * `early`: a writer thread already started (main.ts), used instead of starting one.
   */
  static async open(file: string, tuning?: SqliteTuning, early?: EarlyWriter): Promise<SqliteDb> {
    const memory = file === ':memory:';
    // A data directory made here is the owner's alone: the database, the blobs and the wallet are inside it.
    if (!memory) fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // The writer creates the file and switches it to WAL before a reader opens it.
    const writer = await WriterClient.start(file, tuning, early);
    return new SqliteDb(file, writer, memory ? null : Connection.open(file, { readonly: true, tuning }), tuning);
  }

  /**
   * Enables the helper threads of a long-running gateway (short scripts do without): WAL checkpoints on a thread
   * of their own, and `readerThreads` threads for heavy reads (helper-threads.ts). Until they are up, and if
   * they cannot start, the writer checkpoints itself and heavy reads run here.
   */
  startHelpers(opts: HelperOptions): void {
    if (!this.reader || this.helpers || this.closed) return;
    const setAuto = (pages: number) => this.writer.request({ op: 'exec', sql: `PRAGMA wal_autocheckpoint=${pages}` }).catch(() => undefined);
    this.helpers = new HelperThreads(this.path, setAuto, { tuning: this.tuning, ...opts });
  }

  private inTx<T>(sql: string, params: Params | undefined, rows: boolean): Promise<T> {
    return this.writer.request<T>({ op: 'tx', stmt: this.writer.statement(sql, params, rows) }, true);
  }

  /** A write (or a read that must see the open transaction): joins it, or is group-committed. */
  private write<T>(sql: string, params: Params | undefined, rows: boolean): Promise<T> {
    if (this.scope.isInside()) return this.inTx(sql, params, rows);
    if (this.closed) return Promise.reject(new Error('database is closed'));
    return this.writer.request<T>({ op: 'stmt', stmt: this.writer.statement(sql, params, rows) });
  }

  private readerFor(sql: string): Connection | null {
    return this.reader && isRead(sql) && !this.scope.isInside() ? this.reader : null;
  }

  detach<T>(fn: () => T): T {
    return this.scope.detach(fn);
  }

  get<T = Record<string, unknown>>(sql: string, params?: Params, opts?: ReadOptions): Promise<T | undefined> {
    const r = this.readerFor(sql);
    // A light read here reads one row; anything else takes the general path.
    if (r && !opts?.heavy) return promised(() => r.get<T>(sql, params));
    return this.all<T>(sql, params, opts).then(first);
  }

  all<T = Record<string, unknown>>(sql: string, params?: Params, opts?: ReadOptions): Promise<T[]> {
    const r = this.readerFor(sql);
    if (!r) return this.write<T[]>(sql, params, true);
    const readers = opts?.heavy ? this.helpers?.heavyReaders() : null;
    if (readers) return readers.all<T>(sql, params);
    return promised(() => r.all<T>(sql, params));
  }

  run(sql: string, params?: Params): Promise<RunResult> {
    return this.write<RunResult>(sql, params, false);
  }

  /** Statements applied all or nothing in one message to the writer (group-committed like one statement). */
  batch(list: BatchStatement[], _opts?: TxOptions): Promise<unknown[]> {
    const stmts = () => list.map((s) => this.writer.statement(s.sql, s.params, s.rows === true || s.expectRow === true, s.expectRow));
    if (this.scope.isInside()) return this.writer.request({ op: 'tx-batch', stmts: stmts() }, true);
    if (this.closed) return Promise.reject(new Error('database is closed'));
    return this.writer.request({ op: 'batch', stmts: stmts() });
  }

  /** TxOptions change nothing here: the one writer serialises every transaction. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, _opts?: TxOptions): Promise<T> {
    // Nested inside another transaction: a savepoint, so its failure undoes only its own writes.
    if (this.scope.isInside()) return this.savepoint(fn);
    if (this.closed) return Promise.reject(new Error('database is closed'));
    return this.scope.within(async () => {
      await this.writer.request({ op: 'begin' }, true);
      let out: T;
      try {
        out = await fn(this.tx);
      } catch (err) {
        await this.writer.request({ op: 'end', commit: false }, true).catch(() => undefined);
        throw err;
      }
      // A failed commit is rolled back by the writer and rejects here.
      await this.writer.request({ op: 'end', commit: true }, true);
      return out;
    });
  }

  private async savepoint<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const name = `sp${++this.savepoints}`;
    await this.tx.run(`SAVEPOINT ${name}`);
    try {
      const out = await fn(this.tx);
      await this.tx.run(`RELEASE ${name}`);
      return out;
    } catch (err) {
      await this.tx.run(`ROLLBACK TO ${name}`).catch(() => undefined);
      await this.tx.run(`RELEASE ${name}`).catch(() => undefined);
      throw err;
    }
  }

  exec(sql: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('database is closed'));
    return this.writer.request({ op: 'exec', sql });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Everything sent before close() still runs; the reader closes before the final checkpoint.
    await this.writer.request({ op: 'barrier' });
    await this.helpers?.stop();
    this.reader?.close();
    await this.writer.request({ op: 'close' });
  }
}
