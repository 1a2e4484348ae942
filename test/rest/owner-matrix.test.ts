// Every owner route that names a handle, tried by nobody (401) and by a second agent (403): generated
// from the route table, so routes added later are covered without editing this test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../rest/index.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let victim: { handle: string; secret: string };
let intruder: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  victim = await register(gw.url, 'matrix-victim');
  intruder = await register(gw.url, 'matrix-intruder');
});
afterAll(async () => gw.cleanup());

/** Sample values for path parameters other than the handle. */
const SAMPLE: Record<string, string> = { namespace: 'notes', key: 'k1', name: 'cred', version: '1', id: 'x1' };

function requestFor(r: (typeof routes)[number], selfField?: string) {
  let path = r.path.replace(/\{(\w+)\}/g, (_m, p: string) => (p === 'handle' ? victim.handle : SAMPLE[p] ?? 'sample'));
  let body: Record<string, unknown> | undefined;
  if (selfField && !r.path.includes(`{${selfField}}`)) {
    if (r.method === 'GET' || r.method === 'DELETE') path += `${path.includes('?') ? '&' : '?'}${selfField}=${victim.handle}`;
    else body = { [selfField]: victim.handle };
  }
  if (!body && r.method !== 'GET' && r.method !== 'DELETE') body = {};
  return { path, body };
}

describe('owner routes refuse anonymous callers and other agents', () => {
  const owned = () =>
    routes.filter((r) => {
      if (typeof r.tool !== 'string') return false;
      const t = gw.gateway.registry.get(r.tool)!;
      return t.auth === 'owner' && (r.path.includes('{handle}') || t.selfField);
    });

  it('covers at least the identity owner routes', () => {
    expect(owned().map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['DELETE /agents/{handle}', 'POST /agents/{handle}/secret']),
    );
  });

  it('401 without credentials, 403 for another agent, and the victim is untouched', async () => {
    for (const r of owned()) {
      const t = gw.gateway.registry.get(r.tool as string)!;
      const { path, body } = requestFor(r, t.selfField);
      const anon = await api(gw.url, r.method, path, { body });
      expect(anon.status, `${r.method} ${path} anonymous`).toBe(401);
      const other = await api(gw.url, r.method, path, { body, secret: intruder.secret });
      expect(other.status, `${r.method} ${path} as intruder`).toBe(403);
    }
    expect((await api(gw.url, 'GET', '/agents/me', { secret: victim.secret })).body.handle).toBe(victim.handle);
  });
});
