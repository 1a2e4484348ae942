// SQL for shared 2025-era MCP sessions (migration 026, docs/decisions/mcp-sessions-shared.md): what another
// instance needs to rebuild a session it does not hold. Rows are keyed by the SHA-256 of the session id, and the
// vault_login handle is sealed under a key derived from the id, so the database alone presents nothing.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Db } from './db.js';

export interface StoredSession {
  toolsets: string[];
  /** The initialize request's params, as the client sent them. */
  init: Record<string, unknown>;
  subscriptions: string[];
  login?: string;
}

/** The signal of migration 047: a session's login, toolsets, subscriptions or end changed (PostgreSQL). */
const CHANGED_CHANNEL = 'gw_mcp_sessions';

const hashOf = (id: string): string => createHash('sha256').update(id).digest('hex');
const keyOf = (id: string): Buffer => createHash('sha256').update(`mcp-session-login\0${id}`).digest();

function seal(id: string, login: string): Buffer {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(id), nonce);
  const body = Buffer.concat([c.update(login, 'utf8'), c.final()]);
  return Buffer.concat([nonce, body, c.getAuthTag()]);
}

function open(id: string, sealed: Buffer): string | undefined {
  try {
    const d = createDecipheriv('aes-256-gcm', keyOf(id), sealed.subarray(0, 12));
    d.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([d.update(sealed.subarray(12, sealed.length - 16)), d.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

interface Row {
  toolsets: string;
  init: string;
  subscriptions: string;
  login_sealed: Buffer | Uint8Array | null;
}

export class McpSessionStore {
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    /** A session unseen this long is gone (GATEWAY_MCP_SESSION_IDLE_SECONDS). */
    readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private cutoff(): number {
    return this.now() - this.idleMs;
  }

  async create(id: string, toolsets: string[], init: Record<string, unknown>): Promise<void> {
    const now = this.now();
    await this.db.run('INSERT INTO mcp_sessions (id_hash, toolsets, init, created_at, seen_at) VALUES (?, ?, ?, ?, ?)', [
      hashOf(id),
      JSON.stringify(toolsets),
      JSON.stringify(init),
      now,
      now,
    ]);
  }

  /** The session when it is open and not idle past the limit (and marks it seen); undefined otherwise. */
  async load(id: string): Promise<StoredSession | undefined> {
    const row = await this.db.get<Row>('SELECT toolsets, init, subscriptions, login_sealed FROM mcp_sessions WHERE id_hash = ? AND closed_at IS NULL AND seen_at > ?', [
      hashOf(id),
      this.cutoff(),
    ]);
    if (!row) return undefined;
    void this.touch(id).catch(() => undefined);
    const login = row.login_sealed ? open(id, Buffer.from(row.login_sealed)) : undefined;
    return { toolsets: JSON.parse(row.toolsets), init: JSON.parse(row.init), subscriptions: JSON.parse(row.subscriptions), ...(login ? { login } : {}) };
  }

  /** Marks the session seen; false when it is closed, idle past the limit or unknown (it is over everywhere). */
  async touch(id: string): Promise<boolean> {
    const now = this.now();
    const r = await this.db.run('UPDATE mcp_sessions SET seen_at = ? WHERE id_hash = ? AND closed_at IS NULL AND seen_at > ?', [now, hashOf(id), now - this.idleMs]);
    return r.changes > 0;
  }

  async setLogin(id: string, login: string | undefined): Promise<void> {
    await this.db.run('UPDATE mcp_sessions SET login_sealed = ? WHERE id_hash = ?', [login ? seal(id, login) : null, hashOf(id)]);
  }

  /** The session's selection, widened by tools_find (tool-surface.ts). */
  async setToolsets(id: string, toolsets: readonly string[]): Promise<void> {
    await this.db.run('UPDATE mcp_sessions SET toolsets = ? WHERE id_hash = ?', [JSON.stringify(toolsets), hashOf(id)]);
  }

  async setSubscriptions(id: string, uris: string[]): Promise<void> {
    await this.db.run('UPDATE mcp_sessions SET subscriptions = ? WHERE id_hash = ?', [JSON.stringify(uris), hashOf(id)]);
  }

  /** The subscribed URIs of open sessions among `ids`, by id (one read for all of them). */
  async subscriptionsOf(ids: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const byHash = new Map(ids.map((id) => [hashOf(id), id]));
    const hashes = [...byHash.keys()];
    for (let i = 0; i < hashes.length; i += 500) {
      const part = hashes.slice(i, i + 500);
      const rows = await this.db.all<{ id_hash: string; subscriptions: string }>(
        `SELECT id_hash, subscriptions FROM mcp_sessions WHERE closed_at IS NULL AND id_hash IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const r of rows) out.set(byHash.get(r.id_hash)!, JSON.parse(r.subscriptions));
    }
    return out;
  }

  /**
   * Calls `fn` when any session's login, toolsets, subscriptions or end changed (on another instance too), and
   * after a reconnect of the listener; returns the function that stops it. Null where the store has no signals
   * (SQLite): copies then re-read their rows on their own.
   */
  onChange(fn: () => void): Promise<() => void> | null {
    return this.db.listen?.(CHANGED_CHANNEL, fn) ?? null;
  }

  /** Ends the session for every instance; false when it was not open. */
  async close(id: string): Promise<boolean> {
    const r = await this.db.run('UPDATE mcp_sessions SET closed_at = ? WHERE id_hash = ? AND closed_at IS NULL AND seen_at > ?', [this.now(), hashOf(id), this.cutoff()]);
    return r.changes > 0;
  }

  /** Deletes closed and long-idle rows, at most once a minute. */
  async prune(): Promise<void> {
    const now = this.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    await this.db.run('DELETE FROM mcp_sessions WHERE seen_at <= ? OR closed_at IS NOT NULL', [now - this.idleMs]);
  }
}
