// The per-agent storage budget's limit (migration 044, docs/decisions/storage-budget.md). Counting and refusing happen
// in the database, in the write itself; its triggers read the limit from this setting (none written: no limit).
import { STORAGE_BUDGET_SETTING } from '../storage-budget.js';
import type { Db } from './db.js';
import { setSetting } from './settings.js';

/** Writes the budget the triggers enforce (GATEWAY_AGENT_STORAGE_BYTES); every instance writes the same at start-up. */
export const writeStorageBudget = (db: Db, bytes: number): Promise<void> => setSetting(db, STORAGE_BUDGET_SETTING, String(bytes));
