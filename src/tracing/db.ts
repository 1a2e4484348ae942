// Store transactions and batches as spans (docs/decisions/tracing.md), wrapped once where the database is opened
// (src/store/open.ts) so neither driver knows about tracing. With tracing off a call costs one null check.
import type { Db, TxOptions } from '../store/db.js';
import { tracing } from './state.js';

export function traceDb<D extends Db>(db: D): D {
  const system = db.dialect === 'postgres' ? 'postgresql' : 'sqlite';
  const transaction = db.transaction.bind(db);
  const batch = db.batch.bind(db);
  // Own properties shadow the class's methods, so `instanceof` and the rest of the driver stay as they are.
  Object.assign(db, {
    transaction: <T>(fn: Parameters<Db['transaction']>[0], opts?: TxOptions): Promise<T> =>
      tracing === null ? (transaction(fn, opts) as Promise<T>) : tracing.db(system, 'transaction', undefined, () => transaction(fn, opts) as Promise<T>),
    batch: (stmts: Parameters<Db['batch']>[0], opts?: TxOptions): Promise<unknown[]> =>
      tracing === null ? batch(stmts, opts) : tracing.db(system, 'batch', stmts.length, () => batch(stmts, opts)),
  });
  return db;
}
