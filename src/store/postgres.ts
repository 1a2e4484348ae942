// The PostgreSQL driver behind the Db interface (issue 25, docs/decisions/postgres.md): a `pg` pool; statements
// keep the stores' SQLite placeholders (pg-sql.ts translates them) and are prepared once per connection
// (pg-statements.ts). A transaction holds one pooled connection, and statements issued through the Db from inside
// it join it (an async-local scope, as in the SQLite driver); a nested transaction is a savepoint. Transactions
// (and batches) are serialised across connections and instances by a transaction-scoped advisory lock taken first,
// as SQLite's one writer serialises them (a keyed one, TxOptions, only with its key's and the unkeyed ones): the
// stores' check-then-act transactions (a ledger's "not captured yet, then capture") keep the meaning they have on
// SQLite. Statements outside a transaction run at once, at READ COMMITTED; each is atomic on its own (ON CONFLICT,
// UPDATE … WHERE …).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { GatewayError } from '../errors.js';
import { ScopedStorage } from '../scoped-storage.js';
import { BatchError, type BatchStatement, type Db, type Params, type Queryable, type RunResult, type TxOptions } from './db.js';
import { PgListener } from './pg-listener.js';
import { toPg } from './pg-sql.js';
import { StatementNames } from './pg-statements.js';

// Numbers as SQLite gives them: BIGINT and COUNT(*) (int8), SUM of BIGINT (numeric) as JS numbers; JSON columns as
// their text, which the stores parse as they parse SQLite's TEXT.
const INT8 = 20;
const NUMERIC = 1700;
const JSON_TYPES = new Set([114, 3802]);
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    if (JSON_TYPES.has(oid)) return (v: string) => v;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** The writers' lock: one transaction at a time holds it, across every instance on the database ('AGWW'). */
const WRITE_LOCK = 0x41475757;
const BEGIN_SERIALISED = `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK})`;
/**
 * A keyed transaction (TxOptions.lockKey) holds the writers' lock shared, so it waits for unkeyed transactions and
 * they for it, and its key's lock ('AGWK' and the key's hash) exclusively. A hash collision only serialises two keys.
 */
const KEY_LOCKS = 0x4147574b;
const beginKeyed = (key: string) =>
  `BEGIN; SELECT pg_advisory_xact_lock_shared(${WRITE_LOCK}), pg_advisory_xact_lock(${KEY_LOCKS}, ${createHash('sha1').update(key).digest().readInt32BE(0)})`;

/** SQLSTATE 22021, character_not_in_repertoire: "invalid byte sequence for encoding UTF8: 0x00". */
const NUL_IN_TEXT = '22021';
/** deadlock_detected and serialization_failure: a statement of its own that hit one had no effect, and is retried. */
const RETRYABLE = new Set(['40P01', '40001']);
const STATEMENT_ATTEMPTS = 3;

const INT8_OID = 20;
const FLOAT8_OID = 701;

/**
 * Parameter types for a statement with numbers among its values: numbers are sent as int8 or float8, everything
 * else untyped (PostgreSQL infers it from where it is used, as it does for text into a JSONB column). Untyped, a
 * number would be compared as text where nothing else says what it is (`WHERE ? <= ?`: '5' <= '10' is false).
 * node-pg takes a query's `types` both as the Parse message's parameter types (an array of OIDs) and as its
 * result parsers (getTypeParser), so the array carries this driver's parsers too.
 */
function numberTypes(values: readonly unknown[]): (number[] & { getTypeParser: typeof types.getTypeParser }) | null {
  let any = false;
  const oids = values.map((v) => {
    if (typeof v === 'bigint') return ((any = true), INT8_OID);
    if (typeof v !== 'number') return 0;
    any = true;
    return Number.isInteger(v) ? INT8_OID : FLOAT8_OID;
  });
  return any ? Object.assign(oids, { getTypeParser: types.getTypeParser }) : null;
}

interface TxState {
  client: pg.PoolClient;
  open: boolean;
  savepoints: number;
}

export interface PgOptions {
  /** Pool size (connections this instance may hold). */
  max?: number;
  /** How many distinct statements each connection may keep prepared (0: none); GATEWAY_DATABASE_PREPARED. */
  preparedStatements?: number;
}

const first = <T>(rows: T[]): T | undefined => rows[0];

export class PgDb implements Db {
  readonly dialect = 'postgres' as const;
  private readonly scope = new ScopedStorage<TxState>();
  private closed = false;

  private readonly listener: PgListener;
  private readonly statements: StatementNames;

  private constructor(
    readonly path: string,
    readonly pool: pg.Pool,
    url: string,
    preparedStatements: number,
  ) {
    this.listener = new PgListener({ connectionString: url });
    this.statements = new StatementNames(preparedStatements);
  }

  static async open(url: string, opts: PgOptions = {}): Promise<PgDb> {
    const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, types });
    // An idle client's error (the server restarted) must not take the process down; the next query reconnects.
    pool.on('error', () => undefined);
    const db = new PgDb(redact(url), pool, url, opts.preparedStatements ?? 500);
    await db.get('SELECT 1');
    return db;
  }

  private current(): TxState | undefined {
    const s = this.scope.getStore();
    return s?.open ? s : undefined;
  }

  private async query<T>(client: pg.Pool | pg.PoolClient, sql: string, params?: Params): Promise<pg.QueryResult> {
    if (this.closed) throw new Error('database is closed');
    const { text, values } = toPg(sql, params);
    const paramTypes = numberTypes(values);
    const name = this.statements.nameFor(text, paramTypes);
    for (let attempt = 1; ; attempt++) {
      try {
        if (!paramTypes && !name) return await client.query<T & pg.QueryResultRow>(text, values as unknown[]);
        return await client.query<T & pg.QueryResultRow>({ name, text, values: values as unknown[], types: (paramTypes ?? undefined) as unknown as pg.CustomTypesConfig });
      } catch (err) {
        // A statement of its own (not in a transaction) that PostgreSQL chose as a deadlock's victim, or failed for
        // serialization, did nothing: it runs again (an agent's deletion cascading into rows a background job holds).
        if (client === this.pool && attempt < STATEMENT_ATTEMPTS && err instanceof pg.DatabaseError && RETRYABLE.has(err.code ?? '')) {
          await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
          continue;
        }
        throw this.failure(err, text);
      }
    }
  }

  /** The error a failed statement surfaces as. */
  private failure(err: unknown, text: string): unknown {
    // PostgreSQL's text cannot hold U+0000, which SQLite stores: a client's text with it is refused, not a 500.
    if (err instanceof pg.DatabaseError && err.code === NUL_IN_TEXT) {
      return new GatewayError('validation_error', 'Text cannot contain the character U+0000 on this gateway (its database is PostgreSQL).');
    }
    // The statement (never its values) goes with the error into the log, to find the SQL that failed.
    if (err instanceof pg.DatabaseError) Object.assign(err, { statement: text.replace(/\s+/g, ' ').slice(0, 400) });
    return err;
  }

  private client(): pg.Pool | pg.PoolClient {
    return this.current()?.client ?? this.pool;
  }

  async all<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]> {
    return (await this.query<T>(this.client(), sql, params)).rows as T[];
  }

  async get<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T | undefined> {
    return first(await this.all<T>(sql, params));
  }

  async run(sql: string, params?: Params): Promise<RunResult> {
    const r = await this.query(this.client(), sql, params);
    return { changes: r.rowCount ?? 0, lastId: 0 };
  }

  detach<T>(fn: () => T): T {
    return this.scope.exit(fn);
  }

  /** What a transaction's callback receives: bound to its connection, refused once the transaction has ended. */
  private txQueryable(state: TxState): Queryable {
    const on = async <R>(fn: () => Promise<R>): Promise<R> => {
      if (!state.open) throw new Error('no transaction is open: the statement was sent after its transaction ended');
      return fn();
    };
    return {
      get: <T>(sql: string, params?: Params) => on(async () => first((await this.query<T>(state.client, sql, params)).rows as T[])),
      all: <T>(sql: string, params?: Params) => on(async () => (await this.query<T>(state.client, sql, params)).rows as T[]),
      run: (sql: string, params?: Params) => on(async () => ({ changes: (await this.query(state.client, sql, params)).rowCount ?? 0, lastId: 0 })),
    };
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: TxOptions): Promise<T> {
    const outer = this.current();
    if (outer) return this.savepoint(outer, fn);
    if (this.closed) throw new Error('database is closed');
    const client = await this.pool.connect();
    const state: TxState = { client, open: true, savepoints: 0 };
    let broken = false;
    try {
      await client.query(opts?.lockKey === undefined ? BEGIN_SERIALISED : beginKeyed(opts.lockKey));
      return await this.scope.run(state, async () => {
        let out: T;
        try {
          out = await fn(this.txQueryable(state));
        } catch (err) {
          state.open = false;
          await client.query('ROLLBACK').catch(() => (broken = true));
          throw err;
        }
        state.open = false;
        await client.query('COMMIT');
        return out;
      });
    } finally {
      state.open = false;
      // A connection whose ROLLBACK failed is in an unknown state: destroyed, not returned to the pool.
      client.release(broken || undefined);
    }
  }

  private async savepoint<T>(state: TxState, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const name = `sp${++state.savepoints}`;
    await state.client.query(`SAVEPOINT ${name}`);
    try {
      const out = await fn(this.txQueryable(state));
      await state.client.query(`RELEASE SAVEPOINT ${name}`);
      return out;
    } catch (err) {
      await state.client.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
      throw err;
    }
  }

  /** All or nothing; inside a transaction, a savepoint of it. */
  batch(stmts: BatchStatement[], opts?: TxOptions): Promise<unknown[]> {
    return this.transaction(async (tx) => {
      const out: unknown[] = [];
      for (const [index, s] of stmts.entries()) {
        let result: unknown;
        try {
          result = s.rows || s.expectRow ? await tx.all(s.sql, s.params) : await tx.run(s.sql, s.params);
        } catch (err) {
          throw new BatchError((err as Error).message, index, (err as { code?: string }).code);
        }
        if (s.expectRow && (result as unknown[]).length === 0) throw new BatchError(`statement ${index} returned no row`, index, 'BATCH_NO_ROW');
        out.push(result);
      }
      return out;
    }, opts);
  }

  /** Several statements separated by semicolons, no parameters (migrations). */
  async exec(sql: string): Promise<void> {
    if (this.closed) throw new Error('database is closed');
    await this.client().query(sql);
  }

  /** LISTEN/NOTIFY (pg-listener.ts): `fn` runs when any connection to the database runs NOTIFY `channel`. */
  listen(channel: string, fn: () => void): Promise<() => void> {
    return this.listener.listen(channel, fn);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.listener.close();
    await this.pool.end();
  }
}

/** The URL without its password, for `path` (logs, status). */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres';
  }
}
