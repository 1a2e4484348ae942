// SQL for memory entries and their history. Triggers (migrations 003, 032) keep past versions, the full-text index,
// the change feed and usage counters in step, so each write here is a single statement.
import type { BatchStatement, Db, Queryable, SqlValue } from '../../../src/store/db.js';
import { packValue } from '../../../src/store/value-codec.js';

type Dialect = Db['dialect'];

export interface EntryRow {
  id: number;
  agent_id: string | null;
  namespace: string;
  key: string;
  value: string;
  size: number;
  visibility: 'private' | 'public';
  tags: string;
  pinned: number;
  version: number;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  written_by: string | null;
}

// memory_value(): the stored value's JSON text (SQLite may hold it deflated, src/store/value-codec.ts).
const COLS = 'id, agent_id, namespace, key, memory_value(value) AS value, size, visibility, tags, pinned, version, created_at, updated_at, expires_at, written_by';
const LIVE = '(expires_at IS NULL OR expires_at > ?)';

export interface PutParams {
  ownerId: string | null;
  namespace: string;
  key: string;
  value: string;
  size: number;
  /** null keeps the current setting on update (default on create). */
  visibility: string | null;
  tags: string | null;
  pinned: number | null;
  expiresAt: number | null;
  writtenBy: string | null;
  clientKey: string | null;
  /** Compare-and-set: write only when the live version equals it (0 = create only). */
  ifVersion: number | null;
  now: number;
}

const RETURNING = 'RETURNING id, version, created_at, updated_at';

// Columns set by every update; an expired entry (counted as absent) also gets fresh created_at/visibility/tags.
// SQLite's statements name the key as its unique index does, ifnull(agent_id, ''), so they use it; PostgreSQL's
// index is on coalesce(agent_id, ''). PostgreSQL also needs the table's own columns qualified in the upsert (the
// excluded row is in scope too) and a typed default for the JSONB tags.
const UPDATE_SET = {
  sqlite: `value = ?4, size = ?5,
  visibility = ifnull(?6, CASE WHEN expires_at <= ?9 THEN 'private' ELSE visibility END),
  tags = ifnull(?7, CASE WHEN expires_at <= ?9 THEN '[]' ELSE tags END),
  pinned = ifnull(?8, pinned), version = version + 1,
  created_at = CASE WHEN expires_at <= ?9 THEN ?9 ELSE created_at END,
  updated_at = ?9, expires_at = ?10, written_by = ?11, client_key = ?12`,
  postgres: `value = ?4, size = ?5,
  visibility = coalesce(?6, CASE WHEN memory_entries.expires_at <= ?9 THEN 'private' ELSE memory_entries.visibility END),
  tags = coalesce(?7, CASE WHEN memory_entries.expires_at <= ?9 THEN '[]' ELSE memory_entries.tags END),
  pinned = coalesce(?8, memory_entries.pinned), version = memory_entries.version + 1,
  created_at = CASE WHEN memory_entries.expires_at <= ?9 THEN ?9 ELSE memory_entries.created_at END,
  updated_at = ?9, expires_at = ?10, written_by = ?11, client_key = ?12`,
};

const UPSERT = {
  sqlite: `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, tags, pinned, version, created_at, updated_at, expires_at, written_by, client_key)
  VALUES (?1, ?2, ?3, ?4, ?5, ifnull(?6, 'private'), ifnull(?7, '[]'), ifnull(?8, 0), 1, ?9, ?9, ?10, ?11, ?12)
  ON CONFLICT (ifnull(agent_id, ''), namespace, key) DO UPDATE SET ${UPDATE_SET.sqlite}`,
  postgres: `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, tags, pinned, version, created_at, updated_at, expires_at, written_by, client_key)
  VALUES (?1, ?2, ?3, ?4, ?5, coalesce(?6, 'private'), coalesce(CAST(?7 AS JSONB), '[]'), coalesce(?8, 0), 1, ?9, ?9, ?10, ?11, ?12)
  ON CONFLICT (coalesce(agent_id, ''), namespace, key) DO UPDATE SET ${UPDATE_SET.postgres}`,
};

// Create only: the upsert updates only an expired entry.
const CREATE = {
  sqlite: `${UPSERT.sqlite} WHERE expires_at <= ?9`,
  postgres: `${UPSERT.postgres} WHERE memory_entries.expires_at <= ?9`,
};

const UPDATE_IF_VERSION = {
  sqlite: `UPDATE memory_entries SET ${UPDATE_SET.sqlite}
      WHERE ifnull(agent_id, '') = ifnull(?1, '') AND namespace = ?2 AND key = ?3 AND (expires_at IS NULL OR expires_at > ?9) AND version = ?13`,
  postgres: `UPDATE memory_entries SET ${UPDATE_SET.postgres}
      WHERE coalesce(agent_id, '') = coalesce(?1, '') AND namespace = ?2 AND key = ?3 AND (expires_at IS NULL OR expires_at > ?9) AND version = ?13`,
};

export type PutRow = { id: number; version: number; created_at: number; updated_at: number };

/**
 * The one statement that creates or updates an entry; it returns the new version's row, or no row when
 * `ifVersion` did not match the live version. An expired entry counts as absent (live version 0); its history
 * continues.
 */
export function putStatement(p: PutParams, dialect: Dialect): BatchStatement {
  const params: SqlValue[] = [p.ownerId, p.namespace, p.key, dialect === 'sqlite' ? packValue(p.value, p.size) : p.value, p.size, p.visibility, p.tags, p.pinned, p.now, p.expiresAt, p.writtenBy, p.clientKey];
  if (p.ifVersion === null) return { sql: `${UPSERT[dialect]} ${RETURNING}`, params, expectRow: true };
  if (p.ifVersion === 0) return { sql: `${CREATE[dialect]} ${RETURNING}`, params, expectRow: true };
  params.push(p.ifVersion);
  return { sql: `${UPDATE_IF_VERSION[dialect]} ${RETURNING}`, params, expectRow: true };
}

// One key of an owner (or of the scratchpad, owner NULL), matched as the unique index is written.
const BY_KEY = {
  sqlite: "ifnull(agent_id, '') = ifnull(?, '') AND namespace = ? AND key = ?",
  postgres: "coalesce(agent_id, '') = coalesce(?, '') AND namespace = ? AND key = ?",
};

export const getEntry = (q: Queryable, dialect: Dialect, ownerId: string | null, namespace: string, key: string, now: number): Promise<EntryRow | undefined> =>
  q.get<EntryRow>(`SELECT ${COLS} FROM memory_entries WHERE ${BY_KEY[dialect]} AND ${LIVE}`, [
    ownerId,
    namespace,
    key,
    now,
  ]);

/** The live version of a key (0 when absent or expired). */
export async function liveVersion(q: Queryable, dialect: Dialect, ownerId: string | null, namespace: string, key: string, now: number): Promise<number> {
  const row = await getEntry(q, dialect, ownerId, namespace, key, now);
  return row?.version ?? 0;
}

const LIST_OWNER = { sqlite: "ifnull(agent_id, '') = ifnull(?, '')", postgres: "coalesce(agent_id, '') = coalesce(?, '')" };

/** Keys of a namespace in key order, after a cursor key; `publicOnly` for readers without a grant. */
export const listEntries = (db: Db, o: { ownerId: string | null; namespace: string; after: string; limit: number; publicOnly: boolean; now: number }) =>
  db.all<Omit<EntryRow, 'value'>>(
    `SELECT id, agent_id, namespace, key, size, visibility, tags, pinned, version, created_at, updated_at, expires_at, written_by
     FROM memory_entries WHERE ${LIST_OWNER[db.dialect]} AND namespace = ? AND key > ? AND ${LIVE}
       AND (? = 0 OR visibility = 'public')
     ORDER BY key LIMIT ?`,
    [o.ownerId, o.namespace, o.after, o.now, o.publicOnly ? 1 : 0, o.limit],
  );

// Versions of the entry whose id is `id` (a parameter or a column): the past ones in memory_versions, the current one
// the entry itself (migration 032).
const versionsOf = (id: string) => `SELECT version, memory_value(value) AS value, size, written_at, written_by FROM memory_versions WHERE entry_id = ${id}
  UNION ALL SELECT version, memory_value(value), size, updated_at, written_by FROM memory_entries WHERE id = ${id}`;
const VERSIONS = versionsOf('?1');

type VersionRow = { version: number; value: string; size: number; written_at: number; written_by: string | null };

export const history = (db: Db, entryId: number, limit: number) =>
  db.all<VersionRow>(
    `SELECT v.version, v.value, v.size, v.written_at, (SELECT handle FROM agents WHERE id = v.written_by) AS written_by
     FROM (${VERSIONS}) v ORDER BY v.version DESC LIMIT ?2`,
    [entryId, limit],
  );

export const versionOf = (db: Db, entryId: number, version: number) =>
  db.get<VersionRow>(
    `SELECT v.version, v.value, v.size, v.written_at, (SELECT handle FROM agents WHERE id = v.written_by) AS written_by
     FROM (${VERSIONS}) v WHERE v.version = ?2`,
    [entryId, version],
  );

export const countVersions = async (db: Db, entryId: number): Promise<number> =>
  (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM (${VERSIONS}) v`, [entryId]))?.n ?? 0;

export type RemovalOp = 'delete' | 'expire' | 'forget';

/** Deletes entries by id and writes their tombstones to the change feed, in the caller's transaction. */
export async function removeEntries(tx: Queryable, dialect: Dialect, ids: number[], op: RemovalOp, now: number): Promise<number> {
  let removed = 0;
  for (const id of ids) {
    const gone = await tx.get<{ agent_id: string | null; namespace: string; key: string; version: number }>(
      'DELETE FROM memory_entries WHERE id = ? RETURNING agent_id, namespace, key, version',
      [id],
    );
    if (!gone) continue;
    removed++;
    await tx.run(`DELETE FROM memory_changes WHERE ${BY_KEY[dialect]}`, [gone.agent_id, gone.namespace, gone.key]);
    await tx.run('INSERT INTO memory_changes (agent_id, namespace, key, op, version, at) VALUES (?, ?, ?, ?, ?, ?)', [
      gone.agent_id,
      gone.namespace,
      gone.key,
      op,
      gone.version,
      now,
    ]);
  }
  return removed;
}

/** Ids of entries whose expiry has passed (oldest first), for the sweep. */
export const expiredIds = async (db: Db, now: number, limit: number): Promise<number[]> =>
  (await db.all<{ id: number }>('SELECT id FROM memory_entries WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?', [now, limit])).map(
    (r) => r.id,
  );

export const usageOf = async (db: Db, agentId: string): Promise<{ entries: number; bytes: number }> =>
  (await db.get<{ entries: number; bytes: number }>('SELECT entries, bytes FROM memory_usage WHERE agent_id = ?', [agentId])) ?? { entries: 0, bytes: 0 };

/** Entries of an agent with all kept versions (the current one last), for export (namespace optional). */
const EXPORT_VERSIONS = {
  sqlite: `(SELECT json_group_array(json_object('version', v.version, 'value', json(v.value), 'written_at', v.written_at))
          FROM (${versionsOf('e.id')} ORDER BY 1) v)`,
  postgres: `(SELECT json_agg(json_build_object('version', v.version, 'value', v.value, 'written_at', v.written_at) ORDER BY v.version)
          FROM (${versionsOf('e.id')}) v)`,
};

export const exportRows = (db: Db, agentId: string, namespace: string | null, now: number) =>
  db.all<EntryRow & { versions: string }>(
    `SELECT ${COLS},
       ${EXPORT_VERSIONS[db.dialect]} AS versions
     FROM memory_entries e WHERE agent_id = ? AND (CAST(? AS TEXT) IS NULL OR namespace = ?) AND ${LIVE} ORDER BY namespace, key`,
    [agentId, namespace, namespace, now],
  );

/**
 * Charges the storage budget for history written outside an entry's own write (an import's versions): memory_usage
 * forwards its total when entries or bytes are written (migration 044), so writing bytes unchanged forwards the rest,
 * and refuses the import if it passes the budget.
 */
export const settleStorageCharge = (tx: Queryable, ownerId: string) => tx.run('UPDATE memory_usage SET bytes = bytes WHERE agent_id = ?', [ownerId]);

/** Creates an entry with its imported history (the newest version becomes current). */
export async function insertWithHistory(
  tx: Queryable,
  dialect: Dialect,
  e: { ownerId: string; namespace: string; key: string; visibility: string; tags: string; pinned: number; expiresAt: number | null; writtenBy: string; createdAt: number },
  versions: { version: number; value: string; written_at: number }[],
): Promise<void> {
  const last = versions[versions.length - 1];
  const stored = (json: string) => (dialect === 'sqlite' ? packValue(json) : json);
  const row = await tx.get<{ id: number }>(
    `INSERT INTO memory_entries (agent_id, namespace, key, value, size, visibility, tags, pinned, version, created_at, updated_at, expires_at, written_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [e.ownerId, e.namespace, e.key, stored(last.value), Buffer.byteLength(last.value), e.visibility, e.tags, e.pinned, last.version, e.createdAt, last.written_at, e.expiresAt, e.writtenBy],
  );
  for (const v of versions.slice(0, -1)) {
    await tx.run('INSERT INTO memory_versions (entry_id, version, value, size, written_at, written_by) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [
      row!.id,
      v.version,
      stored(v.value),
      Buffer.byteLength(v.value),
      v.written_at,
      e.writtenBy,
    ]);
  }
}
