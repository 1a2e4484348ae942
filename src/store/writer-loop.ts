// The writer thread's work: bursts of operations from the main thread, run synchronously on the write
// connection. The single statements (and batches) of a burst run inside one BEGIN … COMMIT (group commit):
// each stays atomic on its own (a failing one is undone by SQLite and rejected alone) and every caller hears
// back only after the commit. A transaction holds the writer from `begin` to `end`; whatever else arrives
// meanwhile waits, in order.
import type { Params } from './db.js';
import type { Connection } from './sqlite-connection.js';
import { IN_TRANSACTION, serializeError, type Op, type Reply, type Stmt } from './writer-protocol.js';

/** Most statements one group commit takes. */
const GROUP_MAX = 256;

type Groupable = Extract<Op, { op: 'stmt' | 'batch' }>;

export class WriterLoop {
  private inTx = false;
  private held: Op[] = [];
  private replies: Reply[] = [];
  /** SQL texts by the number the main thread gave them. */
  private readonly sqls = new Map<number, string>();

  constructor(
    private readonly conn: Connection,
    private readonly onClose: () => void,
  ) {}

  /** Runs a burst and returns the replies it produced (some may answer earlier bursts' held operations). */
  receive(ops: Op[]): Reply[] {
    this.process(ops);
    const out = this.replies;
    this.replies = [];
    return out;
  }

  private process(ops: Op[]): void {
    let group: Groupable[] = [];
    const flush = () => {
      if (group.length) this.group(group);
      group = [];
    };
    for (const op of ops) {
      this.learn(op);
      if (this.inTx && !IN_TRANSACTION.has(op.op)) {
        this.held.push(op);
        continue;
      }
      switch (op.op) {
        case 'stmt':
        case 'batch':
          group.push(op);
          if (group.length >= GROUP_MAX) flush();
          break;
        case 'tx':
          this.answer(op.id, () => this.inOpenTx(() => this.one(op.stmt)));
          break;
        case 'tx-batch':
          this.answer(op.id, () => this.inOpenTx(() => this.batch(op.stmts)));
          break;
        case 'begin':
          flush();
          this.answer(op.id, () => {
            this.conn.exec('BEGIN IMMEDIATE');
            this.inTx = true;
            return null;
          });
          break;
        case 'end': {
          this.answer(op.id, () => this.end(op.commit));
          const waiting = this.held;
          this.held = [];
          this.process(waiting);
          break;
        }
        case 'exec':
          flush();
          this.answer(op.id, () => this.conn.exec(op.sql) ?? null);
          break;
        case 'barrier':
          flush();
          this.answer(op.id, () => null);
          break;
        case 'close':
          flush();
          this.answer(op.id, () => {
            try {
              this.conn.exec('PRAGMA wal_checkpoint(TRUNCATE);');
            } catch {
              // another process may still be reading; the WAL is folded in later
            }
            this.conn.close();
            this.onClose();
            return null;
          });
          break;
      }
    }
    flush();
  }

  private answer(id: number, fn: () => unknown): void {
    try {
      this.replies.push([id, true, fn()]);
    } catch (err) {
      this.replies.push([id, false, serializeError(err)]);
    }
  }

  /**
   * Learns the SQL texts an operation brings, before any of it runs: the main thread numbers a text the first time
   * it sends it, so a statement that never ran (behind a failed one in its batch) must still be known next time.
   */
  private learn(op: Op): void {
    const stmts = op.op === 'stmt' || op.op === 'tx' ? [op.stmt] : op.op === 'batch' || op.op === 'tx-batch' ? op.stmts : [];
    for (const st of stmts) if (st.sql !== undefined && st.sid) this.sqls.set(st.sid, st.sql);
  }

  private one(s: Stmt): unknown {
    const sql = s.sql ?? this.sqls.get(s.sid)!;
    const params = s.params as Params | undefined;
    return s.rows ? this.conn.all(sql, params) : this.conn.run(sql, params);
  }

  private batch(stmts: Stmt[]): unknown[] {
    this.conn.exec('SAVEPOINT batch');
    const out: unknown[] = [];
    try {
      for (const s of stmts) {
        try {
          const r = this.one(s);
          if (s.expectRow && (r as unknown[]).length === 0) throw Object.assign(new Error('the statement returned no row'), { code: 'BATCH_NO_ROW' });
          out.push(r);
        } catch (err) {
          throw Object.assign(err instanceof Error ? err : new Error(String(err)), { index: out.length });
        }
      }
      this.conn.exec('RELEASE batch');
      return out;
    } catch (err) {
      if (this.conn.inTransaction) {
        this.conn.exec('ROLLBACK TO batch');
        this.conn.exec('RELEASE batch');
      }
      throw err;
    }
  }

  /** A statement meant for a transaction that has ended (a callback kept its `tx`) must not run on its own. */
  private inOpenTx<T>(fn: () => T): T {
    if (!this.inTx) throw new Error('no transaction is open on the writer');
    return fn();
  }

  private end(commit: boolean): null {
    if (!this.inTx) throw new Error('no transaction is open on the writer');
    this.inTx = false;
    try {
      this.conn.exec(commit ? 'COMMIT' : 'ROLLBACK');
    } catch (err) {
      if (this.conn.inTransaction) this.conn.exec('ROLLBACK');
      throw err;
    }
    return null;
  }

  private group(ops: Groupable[]): void {
    if (ops.length === 1) return this.answer(ops[0].id, () => this.run(ops[0]));
    const outcomes: Reply[] = [];
    let open = 0;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (!this.conn.inTransaction) {
        try {
          this.conn.exec('BEGIN IMMEDIATE');
          open = i;
        } catch (err) {
          for (let j = i; j < ops.length; j++) outcomes.push([ops[j].id, false, serializeError(err)]);
          break;
        }
      }
      try {
        outcomes.push([op.id, true, this.run(op)]);
      } catch (err) {
        outcomes.push([op.id, false, serializeError(err)]);
        // An error that ends the whole transaction (disk full, I/O) took this group's earlier statements with
        // it; the rest go on in a new transaction.
        if (!this.conn.inTransaction) for (let j = open; j < i; j++) if (outcomes[j][1]) outcomes[j] = [outcomes[j][0], false, serializeError(err)];
      }
    }
    if (this.conn.inTransaction) {
      try {
        this.conn.exec('COMMIT');
      } catch (err) {
        if (this.conn.inTransaction) this.conn.exec('ROLLBACK');
        for (let j = open; j < outcomes.length; j++) outcomes[j] = [outcomes[j][0], false, serializeError(err)];
      }
    }
    this.replies.push(...outcomes);
  }

  private run(op: Groupable): unknown {
    return op.op === 'stmt' ? this.one(op.stmt) : this.batch(op.stmts);
  }
}
