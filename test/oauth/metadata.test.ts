// The discovery documents of the signed-in MCP endpoint: protected resource metadata (RFC 9728), the
// authorization server metadata (RFC 8414), and the 401 challenge that points a host to them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerChallenge, protectedResourceMetadata, resourceMetadataUrl, resourceUrl } from '../../src/auth/oauth-resource.js';
import { scopeFor } from '../../src/auth/oauth-scopes.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

describe('metadata documents (pure)', () => {
  it('names /mcp/agent as the resource and the gateway as its authorization server', () => {
    const m = protectedResourceMetadata('https://gw.example.com/');
    expect(m).toMatchObject({
      resource: 'https://gw.example.com/mcp/agent',
      authorization_servers: ['https://gw.example.com'],
      scopes_supported: ['read', 'write', 'vault', 'pay'],
      bearer_methods_supported: ['header'],
    });
    expect(resourceMetadataUrl('https://gw.example.com')).toBe('https://gw.example.com/.well-known/oauth-protected-resource/mcp/agent');
  });

  it('builds RFC 6750 challenges with the metadata URL, scope and error', () => {
    expect(bearerChallenge('http://h')).toBe('Bearer resource_metadata="http://h/.well-known/oauth-protected-resource/mcp/agent"');
    expect(bearerChallenge('http://h', { error: 'insufficient_scope', scope: 'write' })).toBe(
      'Bearer resource_metadata="http://h/.well-known/oauth-protected-resource/mcp/agent", scope="write", error="insufficient_scope"',
    );
    // A dead token's challenge names the default scope, so a client signing in again does not ask for every scope.
    expect(bearerChallenge('http://h', { error: 'invalid_token' })).toBe(
      'Bearer resource_metadata="http://h/.well-known/oauth-protected-resource/mcp/agent", scope="read write", error="invalid_token"',
    );
  });

  it('maps tools to scopes: vault, then paid, then read-only', () => {
    const t = (o: Partial<Parameters<typeof scopeFor>[0]>) => scopeFor({ toolset: 'x', auth: 'owner', price: null, annotations: {}, ...o });
    expect(t({ toolset: 'vault', annotations: { readOnlyHint: true } })).toBe('vault');
    expect(t({ auth: 'paid', price: { usd: '0.01' }, annotations: { readOnlyHint: true } })).toBe('pay');
    expect(t({ annotations: { readOnlyHint: true } })).toBe('read');
    expect(t({})).toBe('write');
  });
});

describe('metadata documents (served)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.cleanup());

  it('serves the protected resource metadata at the root and path-suffixed well-known URLs', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp/agent']) {
      const r = await fetch(gw.url + path);
      expect(r.status).toBe(200);
      const body = (await r.json()) as any;
      expect(body.resource).toBe(resourceUrl(gw.url));
      expect(body.authorization_servers).toEqual([gw.url]);
      expect(body.scopes_supported).toEqual(['read', 'write', 'vault', 'pay']);
      expect(body.bearer_methods_supported).toEqual(['header']);
    }
  });

  it('serves RFC 8414 authorization server metadata: code + PKCE S256, iss parameter, CIMD, registration, revocation', async () => {
    const r = await fetch(`${gw.url}/.well-known/oauth-authorization-server`);
    expect(r.status).toBe(200);
    const m = (await r.json()) as any;
    expect(m.issuer).toBe(gw.url);
    expect(m.authorization_endpoint).toBe(`${gw.url}/oauth/authorize`);
    expect(m.token_endpoint).toBe(`${gw.url}/oauth/token`);
    expect(m.registration_endpoint).toBe(`${gw.url}/oauth/register`);
    expect(m.revocation_endpoint).toBe(`${gw.url}/oauth/revoke`);
    expect(m.code_challenge_methods_supported).toEqual(['S256']);
    expect(m.response_types_supported).toEqual(['code']);
    expect(m.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(m.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(m.authorization_response_iss_parameter_supported).toBe(true);
    expect(m.client_id_metadata_document_supported).toBe(true);
    expect(m.scopes_supported).toEqual(expect.arrayContaining(['read', 'write', 'vault', 'pay']));
  });

  it('answers an unauthenticated /mcp/agent request with 401 and a challenge naming the metadata', async () => {
    const r = await fetch(`${gw.url}/mcp/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(r.status).toBe(401);
    const h = r.headers.get('www-authenticate')!;
    expect(h).toContain(`resource_metadata="${gw.url}/.well-known/oauth-protected-resource/mcp/agent"`);
    expect(h).toContain('scope="read write"');
    const bad = await fetch(`${gw.url}/mcp/agent`, { method: 'POST', headers: { authorization: 'Bearer not-a-real-token-0123456789', 'content-type': 'application/json' }, body: '{}' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(bad.headers.get('www-authenticate')).toContain('scope="read write"');
  });

  it('keeps /mcp open to anonymous callers', async () => {
    const r = await fetch(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(r.status).toBe(200);
  });
});
