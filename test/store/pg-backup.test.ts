// The README's PostgreSQL backup and restore, as written there: `pg_dump -Fc` of a gateway's database, then
// `pg_restore --no-owner` into an empty one, and a gateway on the restored database finds the same data (memory
// with its versions, the wall, credits) and keeps working (new ids follow the old ones; triggers fire again).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, tempDir } from '../helpers/gateway.js';
import { hasPostgres, PG_BIN, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const OPERATOR = 'operator-token-for-backup-test';
/** A page's posts with their links' paths only: the two gateways listen on different ports. */
const postsOf = (body: { posts: { url: string; post_id: number }[] }) => body.posts.map((p) => ({ ...p, url: new URL(p.url).pathname }));
let server: TestPostgres;
const dump = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gw-dump-')), 'gateway.dump');

beforeAll(async () => {
  if (hasPostgres) server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(path.dirname(dump), { recursive: true, force: true });
});

describe.skipIf(!hasPostgres)('PostgreSQL backup and restore (README)', () => {
  it('pg_dump -Fc, pg_restore --no-owner into an empty database: the gateway finds its data and goes on', async () => {
    const from = await server.createDatabase('live');
    const dataDir = tempDir();
    const env = { GATEWAY_DATABASE_URL: from, GATEWAY_OPERATOR_TOKEN: OPERATOR };
    const first = await startGateway({ dataDir, env });
    const a = await register(first.url, 'backed-up');
    for (const v of ['one', 'two', 'three']) expect((await api(first.url, 'PUT', '/memory/notes/k', { secret: a.secret, body: { value: { v } } })).status).toBe(200);
    expect((await api(first.url, 'POST', '/wall', { secret: a.secret, body: { text: 'before the backup #restore' } })).status).toBe(201);
    expect((await api(first.url, 'POST', '/operator/credits', { headers: { 'x-operator-token': OPERATOR }, body: { handle: 'backed-up', amount: 7, reason: 'grant' } })).status).toBe(201);
    const before = {
      entry: (await api(first.url, 'GET', '/memory/notes/k', { secret: a.secret })).body,
      history: (await api(first.url, 'GET', '/memory/notes/k/history', { secret: a.secret })).body,
      wall: postsOf((await api(first.url, 'GET', '/wall')).body),
      credits: (await api(first.url, 'GET', '/agents/backed-up/credits', { secret: a.secret })).body.balance,
    };
    await first.stop();

    execFileSync(path.join(PG_BIN!, 'pg_dump'), ['-Fc', '-f', dump, from]);
    const to = await server.createDatabase('restored');
    execFileSync(path.join(PG_BIN!, 'pg_restore'), ['--no-owner', '-d', to, dump]);

    const second = await startGateway({ dataDir, env: { ...env, GATEWAY_DATABASE_URL: to } });
    try {
      expect((await api(second.url, 'GET', '/memory/notes/k', { secret: a.secret })).body).toEqual(before.entry);
      expect((await api(second.url, 'GET', '/memory/notes/k/history', { secret: a.secret })).body).toEqual(before.history);
      expect(postsOf((await api(second.url, 'GET', '/wall')).body)).toEqual(before.wall);
      expect((await api(second.url, 'GET', '/agents/backed-up/credits', { secret: a.secret })).body.balance).toBe(before.credits);
      expect(before.credits).toBe(7);
      // It goes on: a new version follows the restored ones, a new post gets the next id.
      expect((await api(second.url, 'PUT', '/memory/notes/k', { secret: a.secret, body: { value: { v: 'four' } } })).body.version).toBe(4);
      const post = await api(second.url, 'POST', '/wall', { secret: a.secret, body: { text: 'after the restore #restore' } });
      expect(post.body.post_id).toBeGreaterThan(before.wall[0].post_id);
    } finally {
      await second.cleanup();
    }
  });
});
