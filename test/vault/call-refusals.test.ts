// The call-through's allowed_hosts hold for every hop: an allowed API that redirects elsewhere is refused with 403
// before the next request, so a query credential (which travels in the URL the Location names) never reaches a
// host outside the list. A redirect within the list is followed. And a header that cannot be sent (a pasted "…" in
// the stored value) is the caller's 422, not an upstream failure.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

const KEY = 'query-credential-0123456789';
let gw: TestGateway;
let allowed: http.Server;
let outside: http.Server;
let allowedUrl: string;
let outsideUrl: string;
const reachedOutside: string[] = [];
let a: { handle: string; secret: string };

const listen = (s: http.Server, host: string) => new Promise<string>((r) => s.listen(0, host, () => r(`http://${host}:${(s.address() as AddressInfo).port}`)));

beforeAll(async () => {
  // Redirects /away to the other host with the query it got (as many APIs do), /here within itself.
  allowed = http.createServer((req, res) => {
    const u = new URL(req.url!, allowedUrl);
    if (u.pathname === '/away') return void res.writeHead(302, { location: `${outsideUrl}/collect${u.search}` }).end();
    if (u.pathname === '/here') return void res.writeHead(302, { location: `/final${u.search}` }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: u.pathname, had_key: u.searchParams.get('api_key') === KEY }));
  });
  outside = http.createServer((req, res) => {
    reachedOutside.push(req.url!);
    res.writeHead(200).end('got it');
  });
  allowedUrl = await listen(allowed, '127.0.0.1');
  outsideUrl = await listen(outside, '127.0.0.2');
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.0/8' } });
  a = await register(gw.url, 'vault-redirects');
  const put = await api(gw.url, 'POST', '/vault', { body: { name: 'api', value: KEY, metadata: { allowed_hosts: ['127.0.0.1'] } }, secret: a.secret });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await gw.cleanup();
  await Promise.all([allowed, outside].map((s) => new Promise((r) => s.close(r))));
});

const call = (path: string) => api(gw.url, 'POST', '/vault/call', { body: { url: `${allowedUrl}${path}`, auth: { type: 'query', ref: 'api' } }, secret: a.secret });

describe('a call-through that is redirected', () => {
  it('outside allowed_hosts is refused with 403 and the other host gets nothing', async () => {
    const r = await call('/away');
    expect(r.status).toBe(403);
    expect(r.body.error.reason).toBe('redirect_refused');
    expect(r.body.error.message).toContain('127.0.0.2');
    expect(JSON.stringify(r.body)).not.toContain(KEY);
    expect(reachedOutside).toEqual([]);
  });

  it('within allowed_hosts is followed, the credential with it', async () => {
    const r = await call('/here');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body.body)).toEqual({ path: '/final', had_key: true });
  });
});

describe('a call-through with a header that cannot be sent', () => {
  it('is refused with 422 naming the vault entry or the header, not as an upstream failure', async () => {
    await api(gw.url, 'POST', '/vault', { body: { name: 'pasted', value: 'ghp_abc…', metadata: { allowed_hosts: ['127.0.0.1'] } }, secret: a.secret });
    const viaEntry = await api(gw.url, 'POST', '/vault/call', { body: { url: `${allowedUrl}/final`, auth: { type: 'bearer', ref: 'pasted' } }, secret: a.secret });
    expect(viaEntry.status).toBe(422);
    expect(viaEntry.body.detail[0]).toMatchObject({ loc: ['body', 'auth', 'ref'] });
    expect(viaEntry.body.detail[0].msg).toContain('"pasted"');
    expect(JSON.stringify(viaEntry.body)).not.toContain('ghp_abc');
    const viaHeader = await api(gw.url, 'POST', '/vault/call', { body: { url: `${allowedUrl}/final`, headers: { 'X-Note': 'line\nbreak' }, auth: { type: 'query', ref: 'api' } }, secret: a.secret });
    expect(viaHeader.status).toBe(422);
    expect(viaHeader.body.detail[0].loc).toEqual(['body', 'headers', 'x-note']);
  });
});
