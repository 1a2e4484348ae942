// LISTEN/NOTIFY for PgDb: one dedicated connection per database (a pooled one cannot keep a LISTEN), opened with
// the first listener and closed with the last. If it breaks, it reconnects with a growing delay and calls every
// listener once, since signals sent meanwhile were lost.
import pg from 'pg';

const MAX_RETRY_MS = 5_000;

export class PgListener {
  private readonly channels = new Map<string, Set<() => void>>();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private retryMs = 100;
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {}

  async listen(channel: string, fn: () => void): Promise<() => void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    let set = this.channels.get(channel);
    const first = !set;
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(fn);
    if (first) await (await this.connection()).query(`LISTEN ${channel}`);
    return () => {
      set.delete(fn);
      if (set.size > 0 || this.channels.get(channel) !== set) return;
      this.channels.delete(channel);
      if (this.channels.size === 0) void this.end();
      else void this.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
    };
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client(this.config);
      client.on('notification', (n) => this.fire(n.channel));
      client.on('error', () => this.broken(client));
      client.on('end', () => this.broken(client));
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
      this.client = client;
      this.retryMs = 100;
      return client;
    })().finally(() => (this.connecting = null));
    return this.connecting;
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

  private async end(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    await this.end();
  }
}
