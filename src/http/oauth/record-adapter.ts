// oidc-provider's storage adapter on SQLite (src/store/oauth.ts). Every record is keyed by the SHA-256 of its
// id; token-like records (codes, access and refresh tokens) are stored without their id, so the table holds
// nothing a client could present. Expiries use the system clock, as oidc-provider stamps them with it.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { hashSecret } from '../../auth/secrets.js';
import type { Db } from '../../store/db.js';
import * as store from '../../store/oauth.js';

/** Models whose id is itself a credential; their payload is stored without it. */
const BEARER_KINDS = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'ClientCredentials',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
]);

/** A dynamically registered client and its registration token: kept this long unused (a grant keeps the client longer). */
const REGISTERED_KINDS = new Set(['Client', 'RegistrationAccessToken']);
export const UNUSED_CLIENT_MS = 30 * 86_400_000;

export class RecordAdapter implements Adapter {
  private readonly bearer: boolean;

  constructor(
    private readonly db: Db,
    private readonly kind: string,
    /** oidc-provider's error for a second use of a record of this kind (the module is loaded lazily, provider.ts). */
    private readonly reused: (kind: string) => Error,
  ) {
    this.bearer = BEARER_KINDS.has(kind);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const kept: AdapterPayload = { ...payload };
    if (this.bearer) delete kept.jti;
    const now = Date.now();
    // oidc-provider gives a registered client no lifetime; anyone may register one, so an unused one expires.
    const ttlMs = expiresIn ? expiresIn * 1000 : REGISTERED_KINDS.has(this.kind) ? UNUSED_CLIENT_MS : null;
    const expiresAt = ttlMs === null ? null : now + ttlMs;
    const clientId = payload.clientId ?? (this.kind === 'Client' ? id : null);
    await store.upsertRecord(this.db, this.kind, hashSecret(id), JSON.stringify(kept), {
      grantId: payload.grantId ?? (this.kind === 'Grant' ? id : null),
      uid: payload.uid ?? null,
      accountId: payload.accountId ?? null,
      clientId,
      expiresAt,
    });
    // A client lives while an agent's grant to it does, and an idle month after (its registration access token
    // serves no route here, registration management being off, so it is left to its month).
    if (this.kind === 'Grant' && clientId && expiresAt !== null) await store.keepClientUntil(this.db, hashSecret(clientId), expiresAt + UNUSED_CLIENT_MS);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await store.findRecord(this.db, this.kind, hashSecret(id), Date.now());
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return this.bearer ? { ...payload, jti: id } : payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await store.findRecordByUid(this.db, this.kind, uid, Date.now());
    return row ? (JSON.parse(row.payload) as AdapterPayload) : undefined;
  }

  async findByUserCode(): Promise<undefined> {
    // The device flow is not enabled.
    return undefined;
  }

  /**
   * Marks a code or refresh token used. oidc-provider refuses one it read as used (and revokes its grant), but two
   * exchanges at once both read it unused: the mark is conditional, and the one that finds it set is that second
   * use, so it revokes the grant too, tokens the first may still be writing included (they need a live grant).
   */
  async consume(id: string): Promise<void> {
    const idHash = hashSecret(id);
    if (await store.consumeRecord(this.db, this.kind, idHash, Math.floor(Date.now() / 1000))) return;
    const grantId = await store.grantOfRecord(this.db, this.kind, idHash);
    if (grantId) await store.destroyGrant(this.db, grantId);
    throw this.reused(this.kind);
  }

  async destroy(id: string): Promise<void> {
    await store.destroyRecord(this.db, this.kind, hashSecret(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await store.destroyKindByGrant(this.db, this.kind, grantId);
  }
}
