// LISTEN/NOTIFY for PgDb: one dedicated connection per database (a pooled one cannot keep a LISTEN), opened with
// the first listener and closed with the last. If it breaks, it reconnects with a growing delay and calls every
// listener once, since signals sent meanwhile were lost. While it listens on a channel it holds a row of
// signal_listeners for it, renewed before it expires: the signal triggers notify only while such a row lives
// (pg-migrations/034_signal_listeners.sql), so writes nobody waits for take no notification lock.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const MAX_RETRY_MS = 5_000;
/** How long a registration lives unless renewed, and how often it is renewed (three chances before it expires). */
const LEASE_MS = 60_000;
const RENEW_MS = 20_000;
const DB_NOW = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
/** Registers (or renews) this listener on channels; drops registrations that expired an hour ago (dead instances). */
const REGISTER = `WITH gone AS (DELETE FROM signal_listeners WHERE until < ${DB_NOW} - 3600000)
  INSERT INTO signal_listeners (channel, listener, until) SELECT c, $2, ${DB_NOW} + $3 FROM unnest($1::text[]) AS c
  ON CONFLICT (channel, listener) DO UPDATE SET until = excluded.until`;
const UNREGISTER = 'DELETE FROM signal_listeners WHERE listener = $1 AND channel = ANY($2::text[])';

export class PgListener {
  private readonly channels = new Map<string, Set<() => void>>();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private retryMs = 100;
  private closed = false;
  /** The current connection's name in signal_listeners (a new one per connection, so an old connection's
   * clean-up, still running, cannot remove the registrations of the next). */
  private id = '';
  /** The channels the current connection listens on (or is starting to): done once LISTEN and its row are. */
  private subscribed = new Map<string, Promise<void>>();
  private renewer: NodeJS.Timeout | null = null;

  constructor(private readonly config: pg.ClientConfig) {}

  /**
   * Runs `fn` on each NOTIFY of `channel`; resolves once the connection listens on it. A listen that fails (the
   * server unreachable) rejects and leaves nothing behind, so the next listen on the channel tries again.
   */
  async listen(channel: string, fn: () => void): Promise<() => void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    if (this.closed) throw new Error('the listener is closed');
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(fn);
    const stop = () => {
      set.delete(fn);
      if (set.size > 0 || this.channels.get(channel) !== set) return;
      this.channels.delete(channel);
      if (this.channels.size === 0) void this.end();
      else {
        this.subscribed.delete(channel);
        void this.client?.query(`UNLISTEN ${channel}`).then(() => this.client?.query(UNREGISTER, [this.id, [channel]])).catch(() => undefined);
      }
    };
    try {
      await this.subscribe(await this.connection(), [channel]);
    } catch (err) {
      stop();
      throw err;
    }
    return stop;
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client(this.config);
      client.on('notification', (n) => this.fire(n.channel));
      client.on('error', () => this.broken(client));
      client.on('end', () => this.broken(client));
      await client.connect();
      this.id = `${os.hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
      this.subscribed = new Map();
      this.client = client;
      try {
        await this.subscribe(client, [...this.channels.keys()]);
      } catch (err) {
        await this.end();
        throw err;
      }
      // Closed (or left by every listener) while it connected: the connection must not outlive that.
      if (this.closed || this.channels.size === 0) {
        await this.end();
        throw new Error('the listener is closed');
      }
      this.retryMs = 100;
      this.renewer ??= setInterval(() => this.renew(), RENEW_MS).unref();
      return client;
    })().finally(() => (this.connecting = null));
    return this.connecting;
  }

  /**
   * LISTENs on the channels this connection does not listen on yet, and registers them; a channel already on its
   * way waits for that, so every caller resolves only once its channel is heard. A channel that failed is
   * forgotten, for the next caller to try again.
   */
  private async subscribe(client: pg.Client, channels: string[]): Promise<void> {
    const waits = channels.map((c) => {
      let on = this.subscribed.get(c);
      if (!on) {
        const started = (async () => {
          await client.query(`LISTEN ${c}`);
          await client.query(REGISTER, [[c], this.id, LEASE_MS]);
        })();
        on = started.catch((err: unknown) => {
          if (this.subscribed.get(c) === on) this.subscribed.delete(c);
          throw err;
        });
        this.subscribed.set(c, on);
      }
      return on;
    });
    await Promise.all(waits);
  }

  /** Keeps this listener's registrations alive; a failure waits for the next turn (or the reconnect). */
  private renew(): void {
    if (!this.client || this.channels.size === 0) return;
    this.client.query(REGISTER, [[...this.channels.keys()], this.id, LEASE_MS]).catch(() => undefined);
  }

  private fire(channel: string): void {
    for (const fn of this.channels.get(channel) ?? []) fn();
  }

  /** The connection died: reconnect while anyone listens, then tell everyone (signals may have been lost). */
  private broken(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.closed || this.channels.size === 0) return;
    const retry = () => {
      if (this.closed || this.channels.size === 0) return;
      this.connection().then(
        () => {
          for (const channel of this.channels.keys()) this.fire(channel);
        },
        () => {
          this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
          setTimeout(retry, this.retryMs).unref();
        },
      );
    };
    setTimeout(retry, this.retryMs).unref();
  }

  /** Ends the connection, and with it this listener's registrations. */
  private async end(): Promise<void> {
    const client = this.client;
    const id = this.id;
    this.client = null;
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = null;
    await client?.query('DELETE FROM signal_listeners WHERE listener = $1', [id]).catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    await this.end();
  }
}
