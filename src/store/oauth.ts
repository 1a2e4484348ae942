// SQL for the OAuth authorization server (migration 021): oidc-provider's records, keyed by the SHA-256 of
// their id, and the consents behind the connected-clients list.
import type { Db, Queryable } from './db.js';

export interface OAuthRecord {
  payload: string;
  expires_at: number | null;
}

export interface RecordColumns {
  grantId: string | null;
  uid: string | null;
  accountId: string | null;
  clientId: string | null;
  /** Epoch milliseconds, or null for records that do not expire (registered clients). */
  expiresAt: number | null;
}

export async function upsertRecord(db: Db, kind: string, idHash: string, payload: string, c: RecordColumns): Promise<void> {
  await db.run(
    `INSERT INTO oauth_records (kind, id_hash, payload, grant_id, uid, account_id, client_id, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (kind, id_hash) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
       account_id = excluded.account_id, client_id = excluded.client_id, expires_at = excluded.expires_at`,
    [kind, idHash, payload, c.grantId, c.uid, c.accountId, c.clientId, c.expiresAt],
  );
}

/** Moves a registered client's expiry to `until`, if that is later (one that never expires stays so). */
export async function keepClientUntil(db: Db, clientIdHash: string, until: number): Promise<void> {
  await db.run("UPDATE oauth_records SET expires_at = ? WHERE kind = 'Client' AND id_hash = ? AND expires_at IS NOT NULL AND expires_at < ?", [until, clientIdHash, until]);
}

/** A record that has not expired at `now` (epoch ms). */
export const findRecord = (db: Db, kind: string, idHash: string, now: number): Promise<OAuthRecord | undefined> =>
  db.get<OAuthRecord>('SELECT payload, expires_at FROM oauth_records WHERE kind = ? AND id_hash = ? AND (expires_at IS NULL OR expires_at > ?)', [kind, idHash, now]);

export const findRecordByUid = (db: Db, kind: string, uid: string, now: number): Promise<(OAuthRecord & { id_hash: string }) | undefined> =>
  db.get('SELECT id_hash, payload, expires_at FROM oauth_records WHERE kind = ? AND uid = ? AND (expires_at IS NULL OR expires_at > ?)', [kind, uid, now]);

/**
 * Marks a code or refresh token used, once: false when it was used already (a second exchange racing the first
 * read it unused too) or is gone, for the caller to refuse. The mark is kept so a later use is recognised.
 */
export async function consumeRecord(db: Db, kind: string, idHash: string, at: number): Promise<boolean> {
  return (await db.run(CONSUME[db.dialect], [at, kind, idHash])).changes > 0;
}

const CONSUME = {
  sqlite: `UPDATE oauth_records SET payload = json_set(payload, '$.consumed', ?) WHERE kind = ? AND id_hash = ? AND json_extract(payload, '$.consumed') IS NULL`,
  postgres: `UPDATE oauth_records SET payload = CAST(jsonb_set(CAST(payload AS JSONB), '{consumed}', to_jsonb(CAST(? AS BIGINT))) AS JSON)
    WHERE kind = ? AND id_hash = ? AND CAST(payload AS JSONB) -> 'consumed' IS NULL`,
};

/** The grant a record belongs to, used or expired alike. */
export const grantOfRecord = async (db: Db, kind: string, idHash: string): Promise<string | null> =>
  (await db.get<{ grant_id: string | null }>('SELECT grant_id FROM oauth_records WHERE kind = ? AND id_hash = ?', [kind, idHash]))?.grant_id ?? null;

/** Every record of a grant, the grant's own among them: what a code or refresh token used twice revokes. */
export async function destroyGrant(db: Pick<Db, 'run'>, grantId: string): Promise<void> {
  await db.run('DELETE FROM oauth_records WHERE grant_id = ?', [grantId]);
}

export async function destroyRecord(db: Db, kind: string, idHash: string): Promise<void> {
  await db.run('DELETE FROM oauth_records WHERE kind = ? AND id_hash = ?', [kind, idHash]);
}

export async function destroyKindByGrant(db: Db, kind: string, grantId: string): Promise<void> {
  await db.run('DELETE FROM oauth_records WHERE kind = ? AND grant_id = ?', [kind, grantId]);
}

/** Drops expired records (a sweep; lookups already ignore them). */
export const purgeExpired = async (db: Db, now: number): Promise<number> =>
  (await db.run('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at <= ?', [now])).changes;

/**
 * An unexpired access token with the agent it belongs to, while its grant lives (an agent deleted since, or a grant
 * revoked after the token was written, resolves to nothing).
 */
export const accessTokenWithAgent = (
  db: Db,
  idHash: string,
  now: number,
): Promise<{ payload: string; agent_id: string; handle: string; suspended_at: number | string | null } | undefined> =>
  db.get(
    `SELECT r.payload, a.id AS agent_id, a.handle, a.suspended_at FROM oauth_records r JOIN agents a ON a.id = r.account_id
     WHERE r.kind = 'AccessToken' AND r.id_hash = ? AND r.expires_at > ?
       AND EXISTS (SELECT 1 FROM oauth_records g WHERE g.grant_id = r.grant_id AND g.kind = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > ?))`,
    [idHash, now, now],
  );

export interface ConsentRow {
  grant_id: string;
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  scope: string;
  created_at: number;
}

export async function recordConsent(db: Db, agentId: string, c: Omit<ConsentRow, 'created_at'>, now: number): Promise<void> {
  await db.run(
    `INSERT INTO oauth_consents (grant_id, agent_id, client_id, client_name, client_uri, scope, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (grant_id) DO UPDATE SET scope = excluded.scope, client_name = excluded.client_name, client_uri = excluded.client_uri`,
    [c.grant_id, agentId, c.client_id, c.client_name, c.client_uri, c.scope, now],
  );
}

/** The agent's consents whose grant is still alive (not revoked, not expired), newest first. */
export const liveConsents = (db: Db, agentId: string, now: number): Promise<ConsentRow[]> =>
  db.all<ConsentRow>(
    `SELECT c.grant_id, c.client_id, c.client_name, c.client_uri, c.scope, c.created_at FROM oauth_consents c
     WHERE c.agent_id = ? AND EXISTS (SELECT 1 FROM oauth_records r WHERE r.kind = 'Grant' AND r.grant_id = c.grant_id AND (r.expires_at IS NULL OR r.expires_at > ?))
     ORDER BY c.created_at DESC, c.grant_id`,
    [agentId, now],
  );

/** Revokes the grants (and their tokens and codes) the agent gave one client, or every client; returns how many were live. */
async function revokeConsents(tx: Queryable, agentId: string, clientId?: string): Promise<number> {
  const [filter, params] = clientId === undefined ? ['', [agentId]] : [' AND client_id = ?', [agentId, clientId]];
  const grants = await tx.all<{ grant_id: string }>(`SELECT grant_id FROM oauth_consents WHERE agent_id = ?${filter}`, params);
  let live = 0;
  for (const { grant_id } of grants) {
    live += (await tx.run(`DELETE FROM oauth_records WHERE kind = 'Grant' AND grant_id = ?`, [grant_id])).changes;
    await destroyGrant(tx, grant_id);
  }
  await tx.run(`DELETE FROM oauth_consents WHERE agent_id = ?${filter}`, params);
  return live;
}

/** Revokes every grant (and its tokens and codes) the agent gave one client; returns how many grants. */
export const revokeClient = (db: Db, agentId: string, clientId: string): Promise<number> => db.transaction((tx) => revokeConsents(tx, agentId, clientId));

/** Revokes every grant the agent gave any client, in the caller's transaction (its secret rotated). */
export const revokeAllClients = (tx: Queryable, agentId: string): Promise<number> => revokeConsents(tx, agentId);

/** The agent with this id, if it still exists (the authorization server's account lookup). */
export const agentById = (db: Db, id: string): Promise<{ id: string; handle: string } | undefined> =>
  db.get('SELECT id, handle FROM agents WHERE id = ?', [id]);

/** The agent an unrevoked API key was issued to (keys issued without an agent have none). */
export const agentOfKey = (db: Db, keyHash: string): Promise<{ id: string; handle: string } | undefined> =>
  db.get('SELECT a.id, a.handle FROM api_keys k JOIN agents a ON a.id = k.agent_id WHERE k.key_hash = ? AND k.revoked_at IS NULL', [keyHash]);
