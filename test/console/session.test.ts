// The console's sign-in cookie is a session, not the operator token: it works with the console and nowhere the token
// does (X-Operator-Token), it ends after its lifetime, and it ends at once when the operator token changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_MS } from '../../src/http/console/session.js';
import { api, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';

const TOKEN = 'console-session-operator-token-0123';
const dataDir = tempDir();
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ dataDir, env: { GATEWAY_OPERATOR_TOKEN: TOKEN } });
});
afterAll(async () => gw.cleanup());

async function signIn(url: string): Promise<{ cookie: string; setCookie: string }> {
  const res = await fetch(`${url}/operator/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${TOKEN}`, redirect: 'manual' });
  expect(res.status).toBe(303);
  const setCookie = res.headers.get('set-cookie')!;
  return { cookie: setCookie.split(';')[0], setCookie };
}

const overview = (url: string, cookie: string) => fetch(`${url}/operator`, { headers: { cookie } }).then(async (r) => ({ status: r.status, html: await r.text() }));
const signedInPage = (html: string) => html.includes('Overview') && !html.includes('name="token"');

describe('the console session', () => {
  it('is not the operator token, lasts a while, and serves the console', async () => {
    const { cookie, setCookie } = await signIn(gw.url);
    expect(setCookie).not.toContain(TOKEN);
    expect(setCookie).toContain(`Max-Age=${SESSION_MS / 1000}`);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(signedInPage((await overview(gw.url, cookie)).html)).toBe(true);
    // The cookie's value is no operator credential elsewhere.
    const value = decodeURIComponent(cookie.split('=')[1]);
    expect((await api(gw.url, 'GET', '/operator/agents', { headers: { 'x-operator-token': value } })).status).toBe(403);
  });

  it('a forged or altered session is the sign-in form', async () => {
    const { cookie } = await signIn(gw.url);
    const [name, value] = cookie.split('=');
    const [expires, mac] = value.split('.');
    for (const forged of [`${name}=${Number(expires) + 3_600_000}.${mac}`, `${name}=${expires}.${mac.slice(1)}x`, `${name}=${TOKEN}`, `${name}=`]) {
      expect(signedInPage((await overview(gw.url, forged)).html), forged).toBe(false);
    }
  });

  it('ends when the operator token changes', async () => {
    const { cookie } = await signIn(gw.url);
    await gw.stop();
    const other = await startGateway({ dataDir, env: { GATEWAY_OPERATOR_TOKEN: 'another-operator-token-456789' } });
    try {
      expect(signedInPage((await overview(other.url, cookie)).html)).toBe(false);
    } finally {
      await other.cleanup();
    }
  });
});
