// What the storage budget's counters must hold, measured again from the tables (the same SQL on both stores).
import { STORAGE_ROW_BYTES } from '../../src/storage-budget.js';

/** Every owner's rows measured from scratch, as the budget counts them (a memory entry's history included). */
export const RECOUNT = `SELECT owner_id, SUM(bytes) AS bytes FROM (
  SELECT agent_id AS owner_id, size + ${STORAGE_ROW_BYTES} AS bytes FROM memory_entries WHERE agent_id IS NOT NULL
  UNION ALL SELECT e.agent_id, v.size + ${STORAGE_ROW_BYTES} FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id WHERE e.agent_id IS NOT NULL
  UNION ALL SELECT agent_id, bytes + octet_length(filename) + octet_length(content_type) + ${STORAGE_ROW_BYTES} FROM artifacts WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(name) + octet_length(kind) + octet_length(CAST(metadata AS TEXT)) + octet_length(nonce) + octet_length(ciphertext) + ${STORAGE_ROW_BYTES} FROM vault_entries
  UNION ALL SELECT agent_id, octet_length(text) + ${STORAGE_ROW_BYTES} FROM wall_posts
  UNION ALL SELECT agent_id, ${STORAGE_ROW_BYTES} FROM wall_reactions
  UNION ALL SELECT follower_id, ${STORAGE_ROW_BYTES} FROM follows
  UNION ALL SELECT from_id, octet_length(subject) + octet_length(body) + ${STORAGE_ROW_BYTES} FROM mail
  UNION ALL SELECT agent_id, octet_length(CAST(input AS TEXT)) + coalesce(octet_length(callback_url), 0) + coalesce(octet_length(callback_secret), 0)
      + coalesce(octet_length(CAST(result AS TEXT)), 0) + coalesce(octet_length(error), 0) + coalesce(octet_length(CAST(callback AS TEXT)), 0) + ${STORAGE_ROW_BYTES} FROM jobs WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(task) + octet_length(CAST(context AS TEXT)) + coalesce(octet_length(callback_url), 0) + coalesce(octet_length(callback_secret), 0)
      + coalesce(octet_length(CAST(result AS TEXT)), 0) + coalesce(octet_length(reason), 0) + coalesce(octet_length(CAST(callback AS TEXT)), 0) + ${STORAGE_ROW_BYTES} FROM handoffs WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(url) + coalesce(octet_length(selector), 0) + coalesce(octet_length(callback_url), 0) + ${STORAGE_ROW_BYTES} FROM watches
  UNION ALL SELECT agent_id, octet_length(url) + octet_length(body) + octet_length(secret) + ${STORAGE_ROW_BYTES} FROM webhook_deliveries WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(CAST(status AS TEXT)) + octet_length(CAST(history AS TEXT)) + octet_length(CAST(artifacts AS TEXT)) + ${STORAGE_ROW_BYTES} FROM a2a_tasks WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(tool) + octet_length(work_id) + ${STORAGE_ROW_BYTES} FROM mcp_tasks WHERE agent_id IS NOT NULL
  UNION ALL SELECT account_id, octet_length(CAST(input AS TEXT)) + coalesce(octet_length(CAST(result AS TEXT)), 0) + coalesce(octet_length(CAST(usage AS TEXT)), 0) + coalesce(octet_length(error), 0)
      + coalesce(octet_length(CAST(hold_data AS TEXT)), 0) + coalesce(octet_length(revision_notes), 0) + coalesce(octet_length(webhook_url), 0) + coalesce(octet_length(webhook_secret), 0) + ${STORAGE_ROW_BYTES} FROM orders
) s GROUP BY owner_id ORDER BY owner_id`;
/** The counters as kept by migration 044's triggers (an owner whose rows are all gone keeps one at 0). */
export const COUNTERS = 'SELECT owner_id, bytes FROM storage_usage WHERE bytes <> 0 ORDER BY owner_id';

