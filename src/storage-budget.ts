// The per-agent storage budget (issue 42, docs/decisions/storage-budget.md): what its refusal says. The database
// counts and refuses (migration 044: a charge past the budget aborts the write with
// `storage_budget_exceeded:<used>:<size>:<limit>`); this turns that abort into the answer a client reads. It imports
// nothing, so the error catalogue's toGatewayError can use it for every transport.

/** The setting the database reads the budget from (gateway_settings), written at start-up. */
export const STORAGE_BUDGET_SETTING = 'storage_budget_bytes';

/** What each charged row counts beside its content: migration 044 writes the same number into every measure. */
export const STORAGE_ROW_BYTES = 256;

export interface StorageBudgetRefusal {
  message: string;
  /** The fields the memory and artifact quotas' 413 carry: which quota, its limit, the usage, the write's size. */
  extra: { quota: 'storage_bytes'; limit: number; used: number; size: number };
}

/** The 413's message and fields for a write of `size` bytes to an owner holding `used` of `limit`. */
export function storageBudgetAnswer(used: number, size: number, limit: number): StorageBudgetRefusal {
  return {
    message:
      `This write needs ${size} bytes of storage, and its owner holds ${used} of the ${limit} bytes its storage budget allows ` +
      `(GATEWAY_AGENT_STORAGE_BYTES: memory entries and their history, artifacts, vault entries, posts, reactions, follows, mail sent, ` +
      `jobs, handoffs, watches, tasks and orders, each row its content and ${STORAGE_ROW_BYTES} bytes). Nothing was stored. ` +
      'Make room by deleting what is no longer needed (memory entries or memory_forget, posts, sent mail, vault entries), ' +
      'or wait for artifacts to expire and for retention to remove finished jobs and tasks; reads are never refused.',
    extra: { quota: 'storage_bytes', limit, used, size },
  };
}

const REFUSED = /storage_budget_exceeded:(\d+):(\d+):(\d+)/;

/** The refusal in a write's error (a driver error, or a batch's naming the statement), or null for any other error. */
export function storageBudgetRefusal(err: unknown): StorageBudgetRefusal | null {
  const m = err instanceof Error ? REFUSED.exec(err.message) : null;
  return m ? storageBudgetAnswer(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}
