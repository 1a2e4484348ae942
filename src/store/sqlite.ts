// The SQLite driver behind the Db interface. One write connection behind a queue (SQLite has one writer
// anyway; see write-queue.ts for group commit and re-entrancy), plus reader connections that in WAL mode never
// wait for the writer and never see uncommitted data.
import fs from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import type { Db, Params, Queryable, RunResult } from './db.js';
import { WriteQueue } from './write-queue.js';

const STATEMENT_CACHE = 256;

/**
 * One sqlite3 connection with a small cache of prepared statements, running one statement at a time. The
 * driver would run several at once on the libuv pool, where all but one wait for the connection's mutex,
 * each holding a pool thread: a burst of reads then left the writer (and fs work) queued behind them.
 */
class Connection implements Queryable {
  private readonly cache = new Map<string, Promise<sqlite3.Statement>>();
  private tail: Promise<unknown> = Promise.resolve();
  /** Statements queued or running, for picking the least busy reader. */
  pending = 0;
  constructor(readonly raw: sqlite3.Database) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++;
    const run = this.tail.then(fn, fn).finally(() => this.pending--);
    this.tail = run.catch(() => undefined);
    return run;
  }

  static open(file: string, mode: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const raw = new sqlite3.Database(file, mode, (err) => (err ? reject(err) : resolve(new Connection(raw))));
    });
  }

  private statement(sql: string): Promise<sqlite3.Statement> {
    let st = this.cache.get(sql);
    if (st) return st;
    st = new Promise<sqlite3.Statement>((resolve, reject) => {
      const s: sqlite3.Statement = this.raw.prepare(sql, (err) => (err ? reject(err) : resolve(s)));
    });
    // A statement that fails to prepare is not kept: the next call reports the error again.
    st.catch(() => this.cache.delete(sql));
    if (this.cache.size >= STATEMENT_CACHE) {
      const oldest = this.cache.keys().next().value as string;
      void this.cache.get(oldest)?.then((s) => s.finalize(), () => undefined);
      this.cache.delete(oldest);
    }
    this.cache.set(sql, st);
    return st;
  }

  // `all` steps a statement to its end, which also ends its implicit read transaction; `get` uses it too
  // because a half-read cached statement would pin an old WAL snapshot for the whole connection.
  async all<T>(sql: string, params: Params = []): Promise<T[]> {
    const st = await this.statement(sql);
    return this.serial(() => new Promise((resolve, reject) => st.all(params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)))));
  }

  async get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, params);
    return rows[0];
  }

  async run(sql: string, params: Params = []): Promise<RunResult> {
    const st = await this.statement(sql);
    return this.serial(
      () =>
        new Promise((resolve, reject) => {
          st.run(params, function (this: sqlite3.RunResult, err: Error | null) {
            if (err) reject(err);
            else resolve({ changes: this.changes, lastId: this.lastID });
          });
        }),
    );
  }

  exec(sql: string): Promise<void> {
    return this.serial(() => new Promise((resolve, reject) => this.raw.exec(sql, (err) => (err ? reject(err) : resolve()))));
  }

  async close(): Promise<void> {
    await this.tail;
    const statements = [...this.cache.values()];
    this.cache.clear();
    for (const st of statements) {
      await st.then((s) => new Promise<void>((r) => s.finalize(() => r())), () => undefined);
    }
    await new Promise<void>((resolve, reject) => this.raw.close((err) => (err ? reject(err) : resolve())));
  }
}

const isRead = (sql: string): boolean => /^\s*select\b/i.test(sql);

export class SqliteDb implements Db {
  private readonly queue: WriteQueue;
  private next = 0;
  private savepoints = 0;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly writer: Connection,
    private readonly readers: Connection[],
  ) {
    this.queue = new WriteQueue((sql) => this.writer.run(sql));
  }

  static async open(file: string, opts: { readers?: number } = {}): Promise<SqliteDb> {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const writer = await Connection.open(file, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE);
    // mmap lets reads come straight from the OS page cache (no read() per page); a bigger page cache keeps hot
    // index pages of a large database in the process.
    const tuning = 'PRAGMA mmap_size=268435456; PRAGMA cache_size=-32000; PRAGMA temp_store=MEMORY;';
    await writer.exec(`PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000; ${tuning}`);
    writer.raw.configure('busyTimeout', 5000);
    const readers: Connection[] = [];
    // An in-memory database is private to its connection, so it reads through the writer.
    const count = file === ':memory:' ? 0 : (opts.readers ?? 2);
    for (let i = 0; i < count; i++) {
      const r = await Connection.open(file, sqlite3.OPEN_READONLY);
      await r.exec(`PRAGMA busy_timeout=5000; PRAGMA foreign_keys=ON; ${tuning}`);
      r.raw.configure('busyTimeout', 5000);
      readers.push(r);
    }
    return new SqliteDb(file, writer, readers);
  }

  /** The reader with the fewest statements waiting (round robin among equals). */
  private reader(): Connection {
    if (this.readers.length === 0) return this.writer;
    this.next = (this.next + 1) % this.readers.length;
    let best = this.readers[this.next];
    for (const r of this.readers) if (r.pending < best.pending) best = r;
    return best;
  }

  private write<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed && !this.queue.isInside()) return Promise.reject(new Error('database is closed'));
    return this.queue.statement(fn);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed && !this.queue.isInside()) return Promise.reject(new Error('database is closed'));
    return this.queue.exclusive(fn);
  }

  detach<T>(fn: () => T): T {
    return this.queue.detach(fn);
  }

  private isInside(): boolean {
    return this.queue.isInside();
  }

  get<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T | undefined> {
    if (isRead(sql) && !this.isInside()) return this.reader().get<T>(sql, params);
    return this.write(() => this.writer.get<T>(sql, params));
  }

  all<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]> {
    if (isRead(sql) && !this.isInside()) return this.reader().all<T>(sql, params);
    return this.write(() => this.writer.all<T>(sql, params));
  }

  run(sql: string, params?: Params): Promise<RunResult> {
    return this.write(() => this.writer.run(sql, params));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    // Nested inside another transaction: a savepoint, so its failure undoes only its own writes.
    if (this.isInside()) return this.savepoint(fn);
    return this.exclusive(async () => {
      await this.writer.run('BEGIN IMMEDIATE');
      try {
        const out = await fn(this.writer);
        await this.writer.run('COMMIT');
        return out;
      } catch (err) {
        await this.writer.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  private async savepoint<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const name = `sp${++this.savepoints}`;
    await this.writer.run(`SAVEPOINT ${name}`);
    try {
      const out = await fn(this.writer);
      await this.writer.run(`RELEASE ${name}`);
      return out;
    } catch (err) {
      await this.writer.run(`ROLLBACK TO ${name}`).catch(() => undefined);
      await this.writer.run(`RELEASE ${name}`).catch(() => undefined);
      throw err;
    }
  }

  exec(sql: string): Promise<void> {
    return this.exclusive(() => this.writer.exec(sql));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.exclusive(async () => undefined);
    this.closed = true;
    for (const r of this.readers) await r.close();
    await this.writer.exec('PRAGMA wal_checkpoint(TRUNCATE);').catch(() => undefined);
    await this.writer.close();
  }
}

/** True when a driver error is a uniqueness or other constraint violation. */
export const isConstraintError = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: string }).code === 'SQLITE_CONSTRAINT';
