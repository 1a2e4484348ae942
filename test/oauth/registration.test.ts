// Dynamic client registration (RFC 7591) as the MCP SDKs do it (issue 41): they register with the scope the 401
// challenge names, which must be accepted; and a redirect URI must be HTTPS or a loopback HTTP URL (MCP 2026-07-28,
// security considerations), so a registration naming any other is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptableRedirect } from '../../src/http/oauth/provider.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

const registration = (o: Record<string, unknown>) => ({
  client_name: 'SDK client',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...o,
});
const reg = (o: Record<string, unknown>) => api(gw.url, 'POST', '/oauth/register', { body: registration(o) });

describe('dynamic client registration', () => {
  it('takes the scope the 401 challenge names, and every scope the server lists', async () => {
    const challenge = (await api(gw.url, 'POST', '/mcp/agent', { body: {} })).headers.get('www-authenticate') ?? '';
    const scope = /scope="([^"]+)"/.exec(challenge)?.[1];
    expect(scope).toBe('read write');
    const r = await reg({ redirect_uris: ['http://127.0.0.1:33418/callback'], scope });
    expect(r.status).toBe(201);
    expect(r.body.scope).toBe('read write');
    const all = await reg({ redirect_uris: ['https://app.example/cb'], scope: 'read write vault pay' });
    expect(all.status).toBe(201);
    const unknown = await reg({ redirect_uris: ['https://app.example/cb'], scope: 'read admin' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_client_metadata');
  });

  it('refuses redirect URIs that are neither HTTPS nor loopback HTTP', async () => {
    for (const uri of ['http://127.0.0.1:9/cb', 'http://localhost/cb', 'http://[::1]:8080/cb', 'https://claude.ai/api/mcp/auth_callback']) {
      expect((await reg({ redirect_uris: [uri] })).status, uri).toBe(201);
    }
    for (const uri of ['http://evil.example/cb', 'http://10.0.0.5/cb', 'ftp://files.example/cb', 'myapp://callback']) {
      const r = await reg({ redirect_uris: ['https://ok.example/cb', uri] });
      expect(r.status, uri).toBe(400);
      expect(r.body.error).toBe('invalid_redirect_uri');
      expect(r.body.error_description).toContain(uri);
    }
  });

  it('decides what is a loopback or HTTPS URL by the parsed URL, not its text', () => {
    expect(acceptableRedirect('http://localhost.evil.example/cb')).toBe(false);
    expect(acceptableRedirect('http://127.0.0.1.nip.io/cb')).toBe(false);
    expect(acceptableRedirect('HTTPS://App.Example/cb')).toBe(true);
    expect(acceptableRedirect('not a url')).toBe(false);
  });
});
