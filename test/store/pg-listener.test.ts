// PgListener (src/store/pg-listener.ts) against a real PostgreSQL server: a listen that fails leaves nothing behind,
// so the next one on the same channel really listens; a listener closed while it connects keeps no connection.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgListener } from '../../src/store/pg-listener.js';
import { eventually } from '../helpers/eventually.js';
import { hasPostgres, startPostgres, type TestPostgres } from '../helpers/postgres.js';

describe.skipIf(!hasPostgres)('PgListener', () => {
  let server: TestPostgres;
  let raw: pg.Client;
  beforeAll(async () => {
    server = await startPostgres();
    raw = new pg.Client({ connectionString: server.url });
    await raw.connect();
  }, 60_000);
  afterAll(async () => {
    await raw?.end();
    await server?.stop();
  });

  /** A database with the listeners' table (pg-migrations/034_signal_listeners.sql), its URL. */
  async function migrated(name: string): Promise<string> {
    const url = await server.createDatabase(name);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('CREATE TABLE signal_listeners (channel TEXT NOT NULL, listener TEXT NOT NULL, until BIGINT NOT NULL, PRIMARY KEY (channel, listener))');
    await c.end();
    return url;
  }
  const connections = async (app: string) =>
    Number((await raw.query('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [app])).rows[0].n);

  it('rejects a listen it cannot set up, forgets it, and sets up the next listen on the channel', async () => {
    // The database does not exist yet: connecting fails.
    const listener = new PgListener({ connectionString: server.url.replace(/\/gateway$/, '/later'), application_name: 'pgl-later' });
    let first = 0;
    await expect(listener.listen('gw_test', () => first++)).rejects.toThrow(/later/);
    await migrated('later');
    let second = 0;
    const stop = await listener.listen('gw_test', () => second++);
    const other = new pg.Client({ connectionString: server.url.replace(/\/gateway$/, '/later') });
    await other.connect();
    await other.query('NOTIFY gw_test');
    await eventually(async () => expect(second).toBe(1));
    expect(first).toBe(0);
    expect((await other.query('SELECT channel FROM signal_listeners')).rows).toEqual([{ channel: 'gw_test' }]);
    stop();
    await eventually(async () => expect(await connections('pgl-later')).toBe(0));
    await other.end();
    await listener.close();
  });

  it('rejects a listen whose LISTEN fails on a live connection, and leaves the connection to the others', async () => {
    const url = await migrated('partial');
    const listener = new PgListener({ connectionString: url, application_name: 'pgl-partial' });
    let heard = 0;
    const stop = await listener.listen('gw_one', () => heard++);
    // Without its table the registration fails.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('ALTER TABLE signal_listeners RENAME TO signal_listeners_away');
    await expect(listener.listen('gw_two', () => undefined)).rejects.toThrow(/signal_listeners/);
    await admin.query('ALTER TABLE signal_listeners_away RENAME TO signal_listeners');
    let two = 0;
    const stopTwo = await listener.listen('gw_two', () => two++);
    await admin.query('NOTIFY gw_one');
    await admin.query('NOTIFY gw_two');
    await eventually(async () => expect([heard, two]).toEqual([1, 1]));
    expect(await connections('pgl-partial')).toBe(1);
    stopTwo();
    stop();
    await eventually(async () => expect(await connections('pgl-partial')).toBe(0));
    expect((await admin.query('SELECT count(*)::int AS n FROM signal_listeners')).rows[0].n).toBe(0);
    await admin.end();
  });

  it('a second listen on a channel resolves only once the channel is heard', async () => {
    const url = await migrated('second');
    const listener = new PgListener({ connectionString: url, application_name: 'pgl-second' });
    let a = 0;
    let b = 0;
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    const listeningA = listener.listen('gw_same', () => a++);
    const stopB = await listener.listen('gw_same', () => b++);
    // The second listen resolved, the first perhaps not yet: a NOTIFY sent now reaches both.
    await other.query('NOTIFY gw_same');
    const stopA = await listeningA;
    await eventually(async () => expect([a, b]).toEqual([1, 1]));
    stopA();
    stopB();
    await other.end();
    await listener.close();
  });

  it('keeps no connection when it is closed while connecting', async () => {
    const url = await migrated('closing');
    const listener = new PgListener({ connectionString: url, application_name: 'pgl-closing' });
    const listening = listener.listen('gw_test', () => undefined);
    await listener.close();
    await expect(listening).rejects.toThrow(/closed/);
    await eventually(async () => expect(await connections('pgl-closing')).toBe(0));
    const left = new pg.Client({ connectionString: url });
    await left.connect();
    expect((await left.query('SELECT count(*)::int AS n FROM signal_listeners')).rows[0].n).toBe(0);
    await left.end();
    await expect(listener.listen('gw_test', () => undefined)).rejects.toThrow(/closed/);
  });
});
