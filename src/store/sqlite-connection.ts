// One SQLite connection (better-sqlite3, synchronous) with a cache of prepared statements. Statements run on
// the calling thread: a point read or one write of ours takes 10–40 µs of SQLite work, less than handing it
// to another thread and back would cost.
import type BetterSqlite3 from 'better-sqlite3';
import { Database } from './sqlite-driver.js';
import { DEFAULT_SQLITE_TUNING, type SqliteTuning } from './sqlite-tuning.js';
import type { Params, RunResult, SqlValue } from './db.js';
import { storedWords, unpackValue } from './value-codec.js';
import { ByteLru } from '../byte-lru.js';

// A reader's page cache is dropped whenever another connection commits, so under writes most reads start
// cold; a bigger page cache (GATEWAY_SQLITE_CACHE_KB, per connection) keeps hot index pages of a large database
// in the process. Point reads go through it: memory-mapped, such a read cost 115 µs instead of 23. Heavy reads
// (reader threads), which touch hundreds of scattered pages, map the file instead (GATEWAY_SQLITE_MMAP_BYTES):
// a 50-post topic page took 0.33 ms mapped against 0.69 ms.
const TUNING = ['temp_store=MEMORY', 'foreign_keys=ON'];
const WRITER = ['journal_mode=WAL', 'synchronous=NORMAL', 'journal_size_limit=67108864', ...TUNING];

export interface OpenOptions {
  readonly: boolean;
  /** How long a statement waits for another process's lock. */
  busyMs?: number;
  /** Map the file (a reader thread's heavy reads). */
  mmap?: boolean;
  /** Page cache, statements kept, bytes mapped: the configured bounds (the defaults when absent). */
  tuning?: SqliteTuning;
}

interface Prepared {
  st: BetterSqlite3.Statement;
  /**
   * Set for ?NNN placeholders, which better-sqlite3 binds from an object keyed by number, not from an array:
   * the numbers below the highest that the SQL does not use, which it still wants as anonymous values.
   */
  gaps: number[] | null;
  /** When it last ran (the connection's tick): the least recent is dropped when the cache is full. */
  used: number;
}

/**
 * Every placeholder is written `+?` (`?NNN` as `+?NNN`): the same value to the executor, no input to the planner,
 * as SQLite's query planner stability guarantee would have it (better-sqlite3 cannot switch that on). A bare
 * parameter that the planner looks at marks the statement to be prepared again on its next binding: every bound
 * LIMIT or OFFSET (3.53 and 3.54), and since 3.54 (better-sqlite3 13.1+, Node 22 and later) every equality that
 * a candidate loop does not use, which it asks about to weigh the loop. better-sqlite3 clears the bindings after
 * every run, and SQLite expires a marked statement on that, so a join, an ORDER BY or a non-unique lookup was
 * parsed and planned again at every run (5.4 µs instead of 1.7 for an indexed read ordered by a column).
 * Quoted strings and identifiers and comments are copied as they are.
 */
export function planStableParameters(sql: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < sql.length; i++) {
    const skipped = quotedEnd(sql, i);
    if (skipped >= 0) i = skipped;
    else if (sql[i] === '?' && sql[i - 1] !== '+') {
      out += `${sql.slice(copied, i)}+`;
      copied = i;
    }
  }
  return out === '' ? sql : out + sql.slice(copied);
}

/** The last character of the quoted string or identifier or the comment that starts at `i`; -1 if none does. */
function quotedEnd(sql: string, i: number): number {
  const c = sql[i];
  const close = c === "'" || c === '"' || c === '`' ? c : c === '[' ? ']' : sql.startsWith('--', i) ? '\n' : sql.startsWith('/*', i) ? '*/' : '';
  if (!close) return -1;
  // A doubled quote ends one literal and starts the next, which reads the same.
  const end = sql.indexOf(close, i + (close === '*/' ? 2 : 1));
  return end === -1 ? sql.length : end + close.length - 1;
}

function numberedGaps(sql: string): number[] | null {
  const used = new Set([...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
  if (used.size === 0) return null;
  const gaps: number[] = [];
  for (let i = 1; i < Math.max(...used); i++) if (!used.has(i)) gaps.push(i);
  return gaps;
}

/** Values as the sqlite3 driver accepted them: booleans become 1/0, undefined becomes NULL, dates their ms. */
function bindable(v: unknown): SqlValue {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.getTime();
  return v as SqlValue;
}

function normalise(p: Prepared, params: Params | undefined): unknown[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) return [params];
  let out: unknown[] | SqlValue[] = params;
  for (let i = 0; i < params.length; i++) {
    const v = params[i];
    if (v === undefined || typeof v === 'boolean' || v instanceof Date) {
      if (out === params) out = params.slice();
      out[i] = bindable(v);
    }
  }
  if (!p.gaps) return out;
  const named: Record<number, unknown> = {};
  for (let i = 0; i < out.length; i++) named[i + 1] = out[i];
  return [named, ...p.gaps.map((i) => out[i - 1])];
}

/**
 * The SQL functions the schema's triggers and queries call, on every connection (a trigger runs on the writer's).
 * With `wordsCacheBytes`, memory_words remembers the words of the deflated values it read last, keyed by the stored
 * bytes (as latin1): a search reads the words of a hundred or more entries, and inflating a value again cost 10–25 µs
 * an entry against about 2 µs for a hit. A value stored as text is read directly (about 2 µs: a cache is no faster).
 */
export function registerFunctions(raw: BetterSqlite3.Database, wordsCacheBytes = 0): void {
  raw.function('memory_value', { deterministic: true }, (v: unknown) => (v instanceof Uint8Array ? unpackValue(v) : v) as string);
  const cache = wordsCacheBytes > 0 ? new ByteLru<string>(wordsCacheBytes) : null;
  raw.function('memory_words', { deterministic: true }, (v: unknown) => {
    if (typeof v === 'string') return storedWords(v);
    if (!(v instanceof Uint8Array)) return null;
    if (!cache) return storedWords(v);
    const key = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('latin1');
    let words = cache.get(key);
    if (words === undefined) {
      words = storedWords(v);
      // Both strings as UTF-16 code units, two bytes each.
      cache.set(key, words, 2 * (key.length + words.length));
    }
    return words;
  });
}

export class Connection {
  private readonly cache = new Map<string, Prepared>();
  private tick = 0;

  private constructor(
    readonly raw: BetterSqlite3.Database,
    private readonly maxStatements: number,
  ) {}

  /** Opens `file`; the writer sets WAL mode. */
  static open(file: string, opts: OpenOptions): Connection {
    const tuning = opts.tuning ?? DEFAULT_SQLITE_TUNING;
    const raw = new Database(file, { readonly: opts.readonly, timeout: opts.busyMs ?? 5000 });
    for (const p of opts.readonly ? TUNING : WRITER) raw.pragma(p);
    raw.pragma(`cache_size=${-tuning.cacheKb}`);
    if (opts.mmap && tuning.mmapBytes > 0) raw.pragma(`mmap_size=${tuning.mmapBytes}`);
    registerFunctions(raw, opts.readonly ? tuning.wordsCacheBytes : 0);
    return new Connection(raw, tuning.statements);
  }

  private prepare(sql: string): Prepared {
    let p = this.cache.get(sql);
    // A hit only stamps the statement: moving it to the end of the map (delete and set) on every read cost more.
    if (p) {
      p.used = ++this.tick;
      return p;
    }
    // Prepared before anything is dropped: a statement that fails to prepare leaves the cache as it was.
    p = { st: this.raw.prepare(planStableParameters(sql)), gaps: numberedGaps(sql), used: ++this.tick };
    if (this.cache.size >= this.maxStatements) this.dropLeastRecent();
    this.cache.set(sql, p);
    return p;
  }

  /** Drops the statement that ran least recently (a scan, only when a new statement finds the cache full). */
  private dropLeastRecent(): void {
    let oldest: string | undefined;
    let min = Infinity;
    for (const [sql, p] of this.cache) {
      if (p.used < min) {
        min = p.used;
        oldest = sql;
      }
    }
    if (oldest !== undefined) this.cache.delete(oldest);
  }

  /** The statements kept prepared, as SQLite was given them, least recently used first. */
  get statements(): string[] {
    return [...this.cache.values()].sort((a, b) => a.used - b.used).map((p) => p.st.source);
  }

  /** Rows of a statement; a statement that returns none (a write without RETURNING) runs and gives []. */
  all<T>(sql: string, params?: Params): T[] {
    return (this.rows(sql, params, false) ?? []) as T[];
  }

  /** The first row of a statement (stepping no further), or undefined; a statement that returns none runs. */
  get<T>(sql: string, params?: Params): T | undefined {
    return this.rows(sql, params, true) as T | undefined;
  }

  /** Runs the statement: every row, or with `one` the first; undefined for a statement that returns none. */
  private rows(sql: string, params: Params | undefined, one: boolean): unknown {
    const p = this.prepare(sql);
    const args = normalise(p, params);
    if (!p.st.reader) {
      p.st.run(...args);
      return undefined;
    }
    return one ? p.st.get(...args) : p.st.all(...args);
  }

  run(sql: string, params?: Params): RunResult {
    const p = this.prepare(sql);
    const r = p.st.run(...normalise(p, params));
    return { changes: r.changes, lastId: Number(r.lastInsertRowid) };
  }

  exec(sql: string): void {
    this.raw.exec(sql);
  }

  get inTransaction(): boolean {
    return this.raw.inTransaction;
  }

  close(): void {
    this.cache.clear();
    this.raw.close();
  }
}
