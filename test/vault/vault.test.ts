import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSalt, open, seal, vaultKey } from '../../tools/vault/crypto.js';
import { scanDatabase } from '../helpers/db-scan.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let echo: http.Server;
let echoUrl: string;
let a: { handle: string; secret: string };
let b: { handle: string; secret: string };
const API_KEY = 'sk-live-THISISTHEVERYSECRETKEY123';

/** An API that echoes everything it received back, in its body and in a header. */
function startEcho(): Promise<void> {
  echo = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const seen = { method: req.method, url: req.url, headers: req.headers, body };
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-echo-auth', String(req.headers.authorization ?? req.headers['x-api-key'] ?? ''));
      res.setHeader('set-cookie', 'session=abc');
      res.end(JSON.stringify(seen));
    });
  });
  return new Promise((r) => echo.listen(0, '127.0.0.1', () => r()));
}

beforeAll(async () => {
  await startEcho();
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32' } });
  a = await register(gw.url, 'vault-owner');
  b = await register(gw.url, 'vault-other');
});
afterAll(async () => {
  await gw.cleanup();
  await new Promise((r) => echo.close(r));
});

const as = (who: { secret: string } | null, method: string, p: string, body?: unknown) => api(gw.url, method, p, { body, secret: who?.secret });

describe('vault crypto', () => {
  it('a wrong secret or a tampered ciphertext cannot be opened', () => {
    const salt = newSalt();
    const key = vaultKey('ags_right', salt);
    const sealed = seal(key, 'ag_1', 'name', 'plain');
    expect(open(key, 'ag_1', 'name', sealed.nonce, sealed.ciphertext)).toBe('plain');
    expect(() => open(vaultKey('ags_wrong', salt), 'ag_1', 'name', sealed.nonce, sealed.ciphertext)).toThrow(/cannot be decrypted/);
    expect(() => open(key, 'ag_1', 'other-name', sealed.nonce, sealed.ciphertext)).toThrow(/cannot be decrypted/);
    const tampered = Buffer.from(sealed.ciphertext);
    tampered[0] ^= 1;
    expect(() => open(key, 'ag_1', 'name', sealed.nonce, tampered)).toThrow(/cannot be decrypted/);
  });
});

describe('vault entries', () => {
  it('stores, lists without values, reads, deletes', async () => {
    const put = await as(a, 'POST', '/vault', { name: 'github', value: API_KEY, kind: 'api_key', metadata: { allowed_hosts: ['127.0.0.1'], note: 'ci' } });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(API_KEY);
    expect(put.body).toMatchObject({ name: 'github', kind: 'api_key', metadata: { note: 'ci' } });
    await as(a, 'POST', '/vault', { name: 'login', value: { username: 'alice', password: 'hunter2-very-long' } });
    const list = await as(a, 'GET', '/vault');
    expect(list.body.entries.map((e: { name: string }) => e.name)).toEqual(['github', 'login']);
    expect(JSON.stringify(list.body)).not.toMatch(/THISISTHE|hunter2/);
    expect((await as(a, 'GET', '/vault/github')).body.value).toBe(API_KEY);
    expect((await as(a, 'GET', '/vault/login')).body.value).toEqual({ username: 'alice', password: 'hunter2-very-long' });
    await as(a, 'POST', '/vault', { name: 'temp', value: 'x' });
    expect((await as(a, 'DELETE', '/vault/temp')).status).toBe(200);
    expect((await as(a, 'GET', '/vault/temp')).status).toBe(404);
  });

  it('the secret travels only in the Authorization header', async () => {
    expect((await api(gw.url, 'POST', '/vault', { body: { name: 'x', value: 'y', secret: a.secret } })).status).toBe(400);
    expect((await api(gw.url, 'GET', `/vault/github?secret=${a.secret}`)).status).toBe(400);
    expect((await api(gw.url, 'GET', '/vault/github', { secret: a.secret, body: undefined })).status).toBe(200);
  });

  it('another agent can neither list, read, delete nor call through with the entry', async () => {
    expect((await as(b, 'GET', '/vault')).body.entries).toEqual([]);
    expect((await as(b, 'GET', '/vault/github')).status).toBe(404);
    expect((await as(b, 'GET', `/vault/github?handle=${a.handle}`)).status).toBe(403);
    expect((await as(b, 'DELETE', '/vault/github')).status).toBe(404);
    expect((await as(b, 'DELETE', `/vault/github?handle=${a.handle}`)).status).toBe(403);
    expect((await as(b, 'POST', '/vault/call', { url: `${echoUrl}/x`, auth: { type: 'bearer', ref: 'github' } })).status).toBe(404);
    for (const [m, p] of [
      ['GET', '/vault'],
      ['GET', '/vault/github'],
      ['DELETE', '/vault/github'],
    ]) expect((await as(null, m, p)).status).toBe(401);
    expect((await as(a, 'GET', '/vault/github')).body.value).toBe(API_KEY);
  });

  it('a stolen database file and blob store reveal no vault value', async () => {
    // On SQLite the database is a file in the data directory; on PostgreSQL every table is read whole.
    if (gw.gateway.db.dialect === 'sqlite') await gw.gateway.db.get('PRAGMA wal_checkpoint(FULL)');
    else expect(await scanDatabase(gw.gateway.db, [API_KEY, 'hunter2-very-long'])).toEqual([]);
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of fs.readdirSync(d, { withFileTypes: true })) f.isDirectory() ? walk(path.join(d, f.name)) : files.push(path.join(d, f.name));
    };
    walk(gw.dataDir);
    for (const f of files) {
      const raw = fs.readFileSync(f);
      expect(raw.includes(Buffer.from(API_KEY)), f).toBe(false);
      expect(raw.includes(Buffer.from('hunter2-very-long')), f).toBe(false);
    }
  });

  it('tampering with a stored ciphertext gives a clear error, not a crash', async () => {
    await as(a, 'POST', '/vault', { name: 'fragile', value: 'breakable' });
    const zeros = gw.gateway.db.dialect === 'sqlite' ? 'zeroblob(length(ciphertext))' : "decode(repeat('00', length(ciphertext)), 'hex')";
    await gw.gateway.db.run(`UPDATE vault_entries SET ciphertext = ${zeros} WHERE name = 'fragile'`);
    const r = await as(a, 'GET', '/vault/fragile');
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('integrity_error');
    expect(r.body.error.message).toMatch(/cannot be decrypted/);
  });

  it('rotating the agent secret re-encrypts the vault', async () => {
    const c = await register(gw.url, 'vault-rotator');
    await as(c, 'POST', '/vault', { name: 'k', value: 'kept across rotation' });
    const rotated = await as(c, 'POST', '/agents/vault-rotator/secret');
    expect((await api(gw.url, 'GET', '/vault/k', { secret: rotated.body.secret })).body.value).toBe('kept across rotation');
  });
});

describe('POST /vault/call', () => {
  const call = (body: Record<string, unknown>) => as(a, 'POST', '/vault/call', body);

  it('injects the credential server-side and redacts it from what the API echoes', async () => {
    const r = await call({ url: `${echoUrl}/v1/things?x=1`, method: 'POST', body: { hello: 'world' }, auth: { type: 'bearer', ref: 'github' } });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(200);
    const echoed = JSON.parse(r.body.body);
    expect(echoed.headers.authorization).toBe('Bearer [redacted]');
    expect(echoed.body).toBe('{"hello":"world"}');
    expect(r.body.headers['x-echo-auth']).toBe('Bearer [redacted]');
    expect(r.body.headers['set-cookie']).toBeUndefined();
    expect(r.body.redactions).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(r.body)).not.toContain(API_KEY);
  });

  it('header, query and basic injection, each redacted in every form', async () => {
    const h = await call({ url: `${echoUrl}/h`, auth: { type: 'header', ref: 'github', name: 'X-Token' } });
    expect(JSON.parse(h.body.body).headers['x-token']).toBe('[redacted]');
    const q = await call({ url: `${echoUrl}/q`, auth: { type: 'query', ref: 'github', name: 'key' } });
    expect(JSON.parse(q.body.body).url).toBe('/q?key=[redacted]');
    const basic = await call({ url: `${echoUrl}/b`, auth: { type: 'basic', ref: 'login' } });
    expect(JSON.parse(basic.body.body).headers.authorization).toBe('Basic [redacted]');
    const field = await call({ url: `${echoUrl}/f`, auth: { type: 'bearer', ref: 'login:password' } });
    expect(JSON.parse(field.body.body).headers.authorization).toBe('Bearer [redacted]');
    for (const r of [h, q, basic, field]) expect(JSON.stringify(r.body)).not.toMatch(/THISISTHE|hunter2|YWxpY2U6aHVudGVy/);
    expect((await call({ url: `${echoUrl}/f`, auth: { type: 'bearer', ref: 'login' } })).status).toBe(422);
    expect((await call({ url: `${echoUrl}/f`, auth: { type: 'bearer', ref: 'login:nope' } })).status).toBe(422);
  });

  it('refuses hosts outside allowed_hosts and private addresses without an egress allowance', async () => {
    await as(a, 'POST', '/vault', { name: 'scoped', value: 'scoped-secret-value', metadata: { allowed_hosts: ['api.example.com'] } });
    const r = await call({ url: `${echoUrl}/x`, auth: { type: 'bearer', ref: 'scoped' } });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toMatch(/allowed_hosts/);
    const strict = await startGateway();
    try {
      const c = await register(strict.url, 'vault-strict');
      await api(strict.url, 'POST', '/vault', { body: { name: 'k', value: 'value-for-strict' }, secret: c.secret });
      const blocked = await api(strict.url, 'POST', '/vault/call', { body: { url: `${echoUrl}/x`, auth: { type: 'bearer', ref: 'k' } }, secret: c.secret });
      expect(blocked.status).toBe(403);
      expect(blocked.body.error.reason).toBe('blocked_address');
      expect(JSON.stringify(blocked.body)).not.toContain('value-for-strict');
    } finally {
      await strict.cleanup();
    }
  });
});
