// The per-agent storage budget's SQL (migration 044, docs/decisions/storage-budget.md). Counting and refusing happen in
// the database, in the write itself; its triggers read the limit from a setting (none written: no limit).
import { STORAGE_BUDGET_SETTING } from '../storage-budget.js';
import type { Db, Queryable } from './db.js';
import { setSetting } from './settings.js';

/** Writes the budget the triggers enforce (GATEWAY_AGENT_STORAGE_BYTES); every instance writes the same at start-up. */
export const writeStorageBudget = (db: Db, bytes: number): Promise<void> => setSetting(db, STORAGE_BUDGET_SETTING, String(bytes));

/** Bytes an agent (or a commercial account) holds as the budget counts them; 0 for one that stored nothing. */
export const storageUsed = async (q: Queryable, ownerId: string): Promise<number> =>
  Number((await q.get<{ bytes: number }>('SELECT bytes FROM storage_usage WHERE owner_id = ?', [ownerId]))?.bytes ?? 0);
