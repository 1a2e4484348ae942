// The browser proxy (src/egress/browser-proxy.ts) with Node's own HTTP client standing in for Chromium: plain
// requests and CONNECT tunnels reach addresses the policy allows; a refused address (a server on 127.0.0.2, not in
// the allow-list) is never connected to, gets 403 and is recorded by origin only; a host name is resolved by the
// gateway's lookup, not the client's; hop-by-hop and proxy headers are not forwarded; the download budget cuts a run.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress, startBrowserProxy, type BrowserProxy, type Egress } from '../../src/egress/index.js';

let allowed: http.Server;
let refused: http.Server;
let allowedPort: number;
let refusedPort: number;
let refusedHits = 0;
let lastHeaders: http.IncomingHttpHeaders = {};
let egress: Egress;

const listen = async (s: http.Server, host: string) => {
  await new Promise<void>((r) => s.listen(0, host, () => r()));
  return (s.address() as AddressInfo).port;
};

beforeAll(async () => {
  allowed = http.createServer((req, res) => {
    lastHeaders = req.headers;
    if (req.url === '/big') return void res.end(Buffer.alloc(64 * 1024, 1));
    res.writeHead(200, { 'content-type': 'text/plain', 'x-upstream': 'yes' }).end(`hello ${req.url}`);
  });
  refused = http.createServer((_req, res) => {
    refusedHits++;
    res.end('secret');
  });
  allowedPort = await listen(allowed, '127.0.0.1');
  refusedPort = await listen(refused, '127.0.0.2');
  // Only 127.0.0.1 is allowed; `site.example.test` resolves to it through the gateway's lookup alone.
  egress = createEgress({ allow: ['127.0.0.1/32'], lookup: async (h) => (h === 'site.example.test' ? [{ address: '127.0.0.1', family: 4 }] : Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }))) });
});
afterAll(async () => {
  await egress.close();
  allowed.close();
  refused.close();
});

/** A request in proxy form (absolute URL), as a browser sends it to its HTTP proxy. */
function viaProxy(proxy: BrowserProxy, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const p = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: p.hostname, port: p.port, path: url, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** CONNECT host:port, then (when the tunnel opens) a plain HTTP request through it. */
function tunnel(proxy: BrowserProxy, authority: string): Promise<{ status: number; through?: string }> {
  const p = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: p.hostname, port: p.port, method: 'CONNECT', path: authority, agent: false });
    req.on('connect', (res, socket: net.Socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode! });
      }
      let through = '';
      socket.setEncoding('utf8').on('data', (d) => (through += d));
      socket.on('end', () => resolve({ status: 200, through }));
      socket.write(`GET /tunnelled HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the browser proxy', () => {
  it('forwards a plain request to an allowed address, by the gateway’s own name resolution, without proxy headers', async () => {
    const proxy = await startBrowserProxy(egress, { maxBytes: 1_000_000 });
    try {
      const r = await viaProxy(proxy, `http://site.example.test:${allowedPort}/page?q=1`, { 'proxy-authorization': 'Basic c2VjcmV0', 'x-kept': 'k' });
      expect(r).toMatchObject({ status: 200, body: 'hello /page?q=1' });
      expect(r.headers['x-upstream']).toBe('yes');
      expect(lastHeaders.host).toBe(`site.example.test:${allowedPort}`);
      expect(lastHeaders['x-kept']).toBe('k');
      expect(lastHeaders['proxy-authorization']).toBeUndefined();
      expect(proxy.blocked).toEqual([]);
      expect(proxy.bytes()).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });

  it('refuses an address outside the policy with 403, never connects to it, and records the origin only', async () => {
    const proxy = await startBrowserProxy(egress, { maxBytes: 1_000_000 });
    try {
      const before = refusedHits;
      const r = await viaProxy(proxy, `http://127.0.0.2:${refusedPort}/latest/meta-data?token=abc`);
      expect(r.status).toBe(403);
      expect(r.body).not.toContain('secret');
      const t = await tunnel(proxy, `127.0.0.2:${refusedPort}`);
      expect(t.status).toBe(403);
      const dns = await viaProxy(proxy, `http://unknown.example.test/`);
      expect(dns.status).toBe(403);
      expect(refusedHits).toBe(before);
      expect(proxy.blocked).toEqual([
        { origin: `http://127.0.0.2:${refusedPort}`, reason: expect.stringMatching(/127\.0\.0\.2.*not a public address/) },
        { origin: `https://127.0.0.2:${refusedPort}`, reason: expect.stringMatching(/not a public address/) },
        { origin: 'http://unknown.example.test', reason: 'Could not resolve unknown.example.test (ENOTFOUND).' },
      ]);
      expect(JSON.stringify(proxy.blocked)).not.toMatch(/meta-data|token/);
    } finally {
      await proxy.close();
    }
  });

  it('opens a CONNECT tunnel to an allowed address (HTTPS and WebSockets take this way)', async () => {
    const proxy = await startBrowserProxy(egress, { maxBytes: 1_000_000 });
    try {
      const t = await tunnel(proxy, `site.example.test:${allowedPort}`);
      expect(t.status).toBe(200);
      expect(t.through).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*hello \/tunnelled/);
    } finally {
      await proxy.close();
    }
  });

  it('answers 400 to a request that is not in proxy form or names another scheme', async () => {
    const proxy = await startBrowserProxy(egress, { maxBytes: 1_000_000 });
    try {
      expect((await viaProxy(proxy, '/relative')).status).toBe(400);
      expect((await viaProxy(proxy, 'ftp://site.example.test/')).status).toBe(400);
      expect(proxy.blocked).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('cuts the run once its download budget is spent, and refuses what follows', async () => {
    const proxy = await startBrowserProxy(egress, { maxBytes: 10_000 });
    try {
      await viaProxy(proxy, `http://127.0.0.1:${allowedPort}/big`).catch(() => undefined);
      expect(proxy.bytes()).toBeGreaterThan(10_000);
      expect((await viaProxy(proxy, `http://127.0.0.1:${allowedPort}/after`)).status).toBe(403);
      expect(proxy.blocked).toEqual([{ origin: `http://127.0.0.1:${allowedPort}`, reason: "the run's download budget of 10000 bytes was spent" }]);
    } finally {
      await proxy.close();
    }
  });
});
