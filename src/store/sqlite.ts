// The SQLite driver behind the Db interface: better-sqlite3 connections used synchronously on this thread.
// One write connection behind the group-commit queue (write-queue.ts) and a reader connection that in WAL
// mode never waits for the writer and never sees uncommitted data. The Db interface stays async, so a
// PostgreSQL driver can implement it later.
import fs from 'node:fs';
import path from 'node:path';
import type { Db, Params, Queryable, RunResult } from './db.js';
import { Checkpointer } from './checkpointer.js';
import { Connection } from './sqlite-connection.js';
import { TxScope } from './tx-scope.js';
import { WriteQueue } from './write-queue.js';

const isRead = (sql: string): boolean => /^\s*select\b/i.test(sql);

/** Runs a synchronous statement as the Db's promise: errors reject rather than throw. */
function promised<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

export class SqliteDb implements Db {
  private readonly scope = new TxScope();
  private readonly queue: WriteQueue;
  private savepoints = 0;
  private closed = false;
  private checkpointer: Promise<Checkpointer | null> | null = null;
  /** What a transaction's callback receives: statements run at once inside the open transaction. */
  private readonly tx: Queryable = {
    get: <T>(sql: string, params?: Params) => promised(() => this.writer.all<T>(sql, params)[0]),
    all: <T>(sql: string, params?: Params) => promised(() => this.writer.all<T>(sql, params)),
    run: (sql: string, params?: Params) => promised(() => this.writer.run(sql, params)),
  };

  private constructor(
    readonly path: string,
    private readonly writer: Connection,
    /** null for an in-memory database, which is private to its one connection. */
    private readonly reader: Connection | null,
  ) {
    this.queue = new WriteQueue(writer);
  }

  static async open(file: string): Promise<SqliteDb> {
    const memory = file === ':memory:';
    if (!memory) fs.mkdirSync(path.dirname(file), { recursive: true });
    const writer = Connection.open(file, { readonly: false });
    return new SqliteDb(file, writer, memory ? null : Connection.open(file, { readonly: true }));
  }

  /**
   * Checkpoints the WAL from a thread of its own once that thread is up (a long-running gateway; short
   * scripts keep SQLite's default). If the thread cannot start, the writer keeps checkpointing itself.
   */
  checkpointInBackground(): void {
    if (this.reader && !this.checkpointer && !this.closed) this.checkpointer = Checkpointer.start(this.path, this.writer).catch(() => null);
  }

  /** Statements issued from inside a transaction join it; others queue for the writer (group commit). */
  private write<T>(fn: (c: Connection) => T): Promise<T> {
    if (this.scope.isInside()) return promised(() => fn(this.writer));
    if (this.closed) return Promise.reject(new Error('database is closed'));
    return this.queue.statement(() => fn(this.writer));
  }

  private read<T>(sql: string, fn: (c: Connection) => T): Promise<T> {
    if (this.reader && isRead(sql) && !this.scope.isInside()) {
      if (this.closed) return Promise.reject(new Error('database is closed'));
      const reader = this.reader;
      return promised(() => fn(reader));
    }
    return this.write(fn);
  }

  detach<T>(fn: () => T): T {
    return this.scope.detach(fn);
  }

  get<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T | undefined> {
    return this.read(sql, (c) => c.all<T>(sql, params)[0]);
  }

  all<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]> {
    return this.read(sql, (c) => c.all<T>(sql, params));
  }

  run(sql: string, params?: Params): Promise<RunResult> {
    return this.write((c) => c.run(sql, params));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    // Nested inside another transaction: a savepoint, so its failure undoes only its own writes.
    if (this.scope.isInside()) return this.savepoint(fn);
    if (this.closed) return Promise.reject(new Error('database is closed'));
    return this.queue.exclusive(() =>
      this.scope.within(async () => {
        this.writer.exec('BEGIN IMMEDIATE');
        try {
          const out = await fn(this.tx);
          this.writer.exec('COMMIT');
          return out;
        } catch (err) {
          if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
          throw err;
        }
      }),
    );
  }

  private async savepoint<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const name = `sp${++this.savepoints}`;
    this.writer.exec(`SAVEPOINT ${name}`);
    try {
      const out = await fn(this.tx);
      this.writer.exec(`RELEASE ${name}`);
      return out;
    } catch (err) {
      if (this.writer.inTransaction) {
        this.writer.exec(`ROLLBACK TO ${name}`);
        this.writer.exec(`RELEASE ${name}`);
      }
      throw err;
    }
  }

  exec(sql: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('database is closed'));
    return this.queue.exclusive(async () => this.writer.exec(sql));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Everything queued before close() still runs.
    await this.queue.exclusive(async () => undefined);
    await (await this.checkpointer)?.stop();
    this.reader?.close();
    try {
      this.writer.exec('PRAGMA wal_checkpoint(TRUNCATE);');
    } catch {
      // another process may still be reading; the WAL is folded in later
    }
    this.writer.close();
  }
}

/** True when a driver error is a uniqueness or other constraint violation. */
export const isConstraintError = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && String((err as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT');
