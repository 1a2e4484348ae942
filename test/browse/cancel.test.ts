// A canceled browse stops its page fetch: the egress takes the call's signal (a `canceled` error at once), and a
// client that hangs up on its MCP call leaves no connection waiting on a slow site.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEgress } from '../../src/egress/index.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { modernPost } from '../helpers/modern-mcp.js';
import { startSite, type Site } from './site.js';

let gw: TestGateway;
let site: Site;
let key: string;

beforeAll(async () => {
  site = await startSite({ bigBytes: 10, slowMs: 10_000 });
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
  key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'cancel@example.com' } })).body.key;
});

afterAll(async () => {
  await gw?.cleanup();
  await site?.close();
});

it('egress: an aborted signal ends the fetch with `canceled`', async () => {
  const egress = createEgress({ allow: ['127.0.0.1/32'] });
  try {
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 150);
    await expect(egress.fetch(`${site.url}/slow`, { signal: ac.signal })).rejects.toMatchObject({ code: 'canceled' });
    expect(Date.now() - started).toBeLessThan(2_000);
    const done = new AbortController();
    done.abort();
    await expect(egress.fetch(`${site.url}/plain`, { signal: done.signal })).rejects.toMatchObject({ code: 'canceled' });
  } finally {
    await egress.close();
  }
});

it('MCP (2026-07-28): hanging up on a browse call closes its connection to the site', async () => {
  const before = site.slowDropped();
  const hits = site.hits.get('/slow') ?? 0;
  const ac = new AbortController();
  const call = modernPost(gw.url, 'tools/call', { name: 'browse', arguments: { url: `${site.url}/slow` } }, { signal: ac.signal, headers: { 'x-api-key': key } }).catch((err: unknown) => err);
  await eventually(async () => expect(site.hits.get('/slow') ?? 0).toBe(hits + 1));
  ac.abort();
  await call;
  await eventually(async () => expect(site.slowDropped()).toBe(before + 1));
});
