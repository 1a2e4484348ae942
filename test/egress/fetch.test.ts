import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT, Egress, EgressError, createEgress, type LookupFn } from '../../src/egress/index.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  url: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

/** A loopback HTTP server whose handler gets the request with its body already read. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(entry);
      handler(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function failure(p: Promise<unknown>): Promise<EgressError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(EgressError);
    return err as EgressError;
  }
  throw new Error('expected the request to fail');
}

const LOOPBACK = ['127.0.0.1/32'];

describe('safeFetch', () => {
  let echo: TestServer;
  let other: TestServer;
  const egresses: Egress[] = [];
  const make = (opts: Parameters<typeof createEgress>[0] = {}): Egress => {
    const e = createEgress(opts);
    egresses.push(e);
    return e;
  };

  beforeAll(async () => {
    // Both echo the request they received as JSON; `echo` also has routes that redirect and misbehave.
    other = await serve((req, res, seen) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(seen));
    });
    echo = await serve((req, res, seen) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const to = u.searchParams.get('to');
      const status = Number(u.searchParams.get('status') ?? 302);
      switch (u.pathname) {
        case '/redirect':
          res.writeHead(status, { location: to ?? '/echo' }).end('moving');
          return;
        case '/loop':
          res.writeHead(302, { location: '/loop' }).end();
          return;
        case '/chain': {
          const n = Number(u.searchParams.get('n'));
          res.writeHead(302, { location: n > 0 ? `/chain?n=${n - 1}` : '/echo' }).end();
          return;
        }
        case '/big':
          res.writeHead(200, { 'content-type': 'text/plain' }); // chunked: no content-length
          for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000, 97));
          res.end();
          return;
        case '/big-declared':
          res.writeHead(200, { 'content-length': '10000' });
          res.end(Buffer.alloc(10000, 97));
          return;
        case '/hang':
          return; // never answers
        case '/slow-body':
          res.writeHead(200);
          res.write('start');
          return; // never ends
        default:
          res.setHeader('content-type', 'application/json');
          res.setHeader('x-multi', ['a', 'b']);
          res.end(JSON.stringify(seen));
      }
    });
  });

  afterEach(async () => {
    await Promise.all(egresses.splice(0).map((e) => e.close()));
  });

  afterAll(async () => {
    await echo.close();
    await other.close();
  });

  describe('address policy', () => {
    it('refuses loopback by default and allows it with allow: 127.0.0.1/32', async () => {
      const err = await failure(make().fetch(`${echo.url}/echo`));
      expect(err.code).toBe('blocked_address');
      expect(err.address).toBe('127.0.0.1');
      expect(err.message).toMatch(/127\.0\.0\.1.*loopback/);

      const res = await make({ allow: LOOPBACK }).fetch(`${echo.url}/echo`);
      expect(res.status).toBe(200);
      expect(res.url).toBe(`${echo.url}/echo`);
      expect(res.redirects).toEqual([]);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['x-multi']).toBe('a, b');
      expect(JSON.parse(res.body.toString())).toMatchObject({ method: 'GET', url: '/echo' });
    });

    it('refuses localhost (it resolves to loopback)', async () => {
      const err = await failure(make().fetch(`http://localhost:${echo.port}/echo`));
      expect(err.code).toBe('blocked_address');
      expect(err.message).toContain('localhost');
    });

    it('refuses a name that resolves to loopback through an injected resolver, and pins the connection to the checked address', async () => {
      const calls: string[] = [];
      const lookup: LookupFn = async (host) => {
        calls.push(host);
        if (host === 'internal.example.test') return [{ address: '127.0.0.1', family: 4 }];
        if (host === 'mixed.example.test') return [{ address: '127.0.0.1', family: 4 }, { address: '10.0.0.7', family: 4 }];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      };

      const refused = await failure(make({ lookup }).fetch(`http://internal.example.test:${echo.port}/echo`));
      expect(refused.code).toBe('blocked_address');
      expect(refused.message).toContain('internal.example.test');

      // With loopback allowed, the fake name (unknown to real DNS) reaches the server: the socket went to
      // the address our resolver returned and the policy passed; Host still carries the name.
      calls.length = 0;
      const allowed = make({ lookup, allow: LOOPBACK });
      const res = await allowed.fetch(`http://internal.example.test:${echo.port}/echo`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.toString()).headers.host).toBe(`internal.example.test:${echo.port}`);
      expect(calls).toEqual(['internal.example.test']); // resolved once

      // ANY disallowed address refuses the name.
      const mixed = await failure(allowed.fetch(`http://mixed.example.test:${echo.port}/echo`));
      expect(mixed.code).toBe('blocked_address');
      expect(mixed.address).toBe('10.0.0.7');

      const missing = await failure(allowed.fetch(`http://nowhere.example.test:${echo.port}/`));
      expect(missing.code).toBe('dns');
    });

    it.each(['http://2130706433/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/', 'http://127.1/', 'http://0x7f000001/'])(
      'refuses the numeric literal %s',
      async (u) => {
        const err = await failure(make().fetch(u));
        expect(err.code).toBe('blocked_address');
        expect(err.address).toBe('127.0.0.1');
      },
    );

    it.each(['http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[::1]/', 'http://[::]/', 'http://0.0.0.0/', 'http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://[64:ff9b::7f00:1]/'])(
      'refuses %s',
      async (u) => {
        expect((await failure(make().fetch(u))).code).toBe('blocked_address');
      },
    );

    it('refuses other schemes and URLs with credentials', async () => {
      expect((await failure(make().fetch('file:///etc/passwd'))).code).toBe('scheme');
      expect((await failure(make().fetch('ftp://example.com/'))).code).toBe('scheme');
      expect((await failure(make().fetch('http://u:secret@example.com/'))).code).toBe('bad_url');
      expect((await failure(make().fetch('::nonsense::'))).code).toBe('bad_url');
    });
  });

  describe('redirects', () => {
    it('re-checks every hop: an allowed host redirecting to a private or metadata address is refused', async () => {
      const e = make({ allow: LOOPBACK });
      for (const to of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://192.168.1.1/']) {
        const err = await failure(e.fetch(`${echo.url}/redirect?to=${encodeURIComponent(to)}`));
        expect(err.code).toBe('blocked_address');
      }
      // Even with the whole link-local range allowed, the metadata address needs an exact entry.
      const wide = make({ allow: [...LOOPBACK, '169.254.0.0/16'] });
      expect((await failure(wide.fetch(`${echo.url}/redirect?to=${encodeURIComponent('http://169.254.169.254/')}`))).code).toBe(
        'blocked_address',
      );
    });

    it('refuses a redirect to another scheme', async () => {
      const err = await failure(make({ allow: LOOPBACK }).fetch(`${echo.url}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`));
      expect(err.code).toBe('scheme');
    });

    it('follows up to 5 redirects and reports them', async () => {
      const res = await make({ allow: LOOPBACK }).fetch(`${echo.url}/chain?n=3`);
      expect(res.status).toBe(200);
      expect(res.redirects).toEqual([`${echo.url}/chain?n=2`, `${echo.url}/chain?n=1`, `${echo.url}/chain?n=0`, `${echo.url}/echo`]);
      expect(res.url).toBe(`${echo.url}/echo`);
    });

    it('stops a redirect loop with too_many_redirects', async () => {
      const before = echo.seen.length;
      const err = await failure(make({ allow: LOOPBACK }).fetch(`${echo.url}/loop`));
      expect(err.code).toBe('too_many_redirects');
      expect(echo.seen.length - before).toBe(6); // the first request and 5 followed redirects
      expect((await failure(make({ allow: LOOPBACK }).fetch(`${echo.url}/chain?n=5`))).code).toBe('too_many_redirects');
      expect((await failure(make({ allow: LOOPBACK }).fetch(`${echo.url}/chain?n=0`, { maxRedirects: 0 }))).code).toBe('too_many_redirects');
    });

    it('returns the 3xx as it is when redirects are not followed', async () => {
      const res = await make({ allow: LOOPBACK }).fetch(`${echo.url}/redirect?to=/echo`, { followRedirects: false });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/echo');
      expect(res.redirects).toEqual([]);
    });

    it('does not forward credentials when a redirect changes origin', async () => {
      const e = make({ allow: LOOPBACK });
      const target = `${other.url}/echo`;
      const res = await e.fetch(`${echo.url}/redirect?to=${encodeURIComponent(target)}`, {
        headers: { Authorization: 'Bearer top-secret', Cookie: 'sid=1', 'Proxy-Authorization': 'Basic x', 'X-Api-Key': 'k-123', 'X-Trace': 'keep-me' },
        sensitiveHeaders: ['X-Api-Key'],
      });
      expect(res.url).toBe(target);
      const got = JSON.parse(res.body.toString()).headers as Record<string, string>;
      expect(got.authorization).toBeUndefined();
      expect(got.cookie).toBeUndefined();
      expect(got['proxy-authorization']).toBeUndefined();
      expect(got['x-api-key']).toBeUndefined();
      expect(got['x-trace']).toBe('keep-me');
      expect(got['user-agent']).toBe(DEFAULT_USER_AGENT);
    });

    it('keeps credentials on a same-origin redirect', async () => {
      const res = await make({ allow: LOOPBACK }).fetch(`${echo.url}/redirect?to=/echo`, { headers: { Authorization: 'Bearer same' } });
      expect(JSON.parse(res.body.toString()).headers.authorization).toBe('Bearer same');
    });

    it('turns 303 (and 301/302 after POST) into a bodiless GET, and keeps method and body for 307/308', async () => {
      const e = make({ allow: LOOPBACK });
      const post = { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } };
      for (const status of [301, 302, 303]) {
        const res = await e.fetch(`${echo.url}/redirect?status=${status}&to=/echo`, post);
        const last = JSON.parse(res.body.toString());
        expect(last).toMatchObject({ method: 'GET', body: '' });
        expect(last.headers['content-type']).toBeUndefined();
      }
      for (const status of [307, 308]) {
        const res = await e.fetch(`${echo.url}/redirect?status=${status}&to=/echo`, post);
        const last = JSON.parse(res.body.toString());
        expect(last).toMatchObject({ method: 'POST', body: '{"a":1}' });
        expect(last.headers['content-type']).toBe('application/json');
      }
      const put = await e.fetch(`${echo.url}/redirect?status=302&to=/echo`, { method: 'PUT', body: 'x' });
      expect(JSON.parse(put.body.toString())).toMatchObject({ method: 'PUT', body: 'x' });
    });
  });

  describe('limits', () => {
    it('always sends the fixed User-Agent', async () => {
      const res = await make({ allow: LOOPBACK }).fetch(`${echo.url}/echo`, { headers: { 'User-Agent': 'curl/8', host: 'evil.example' } });
      const last = JSON.parse(res.body.toString());
      expect(last.headers['user-agent']).toBe('AgentGateway/1.6 (+https://github.com/agent-gateway)');
      expect(last.headers.host).toBe(`127.0.0.1:${echo.port}`);
    });

    it('caps the body (streamed and declared lengths)', async () => {
      const e = make({ allow: LOOPBACK });
      const streamed = await failure(e.fetch(`${echo.url}/big`, { maxBytes: 4000 }));
      expect(streamed.code).toBe('too_large');
      expect(streamed.message).toContain('4000');
      expect((await failure(e.fetch(`${echo.url}/big-declared`, { maxBytes: 4000 }))).code).toBe('too_large');
      const ok = await e.fetch(`${echo.url}/big`, { maxBytes: 10_000 });
      expect(ok.body.length).toBe(10_000);
    });

    it('times out against a server that never answers', async () => {
      const e = make({ allow: LOOPBACK });
      const started = Date.now();
      const err = await failure(e.fetch(`${echo.url}/hang`, { totalTimeoutMs: 300 }));
      expect(err.code).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await failure(e.fetch(`${echo.url}/slow-body`, { totalTimeoutMs: 300 }))).code).toBe('timeout');
    });

    it('reports a refused connection as connect', async () => {
      const gone = await serve(() => undefined);
      const url = `${gone.url}/`;
      await gone.close();
      const err = await failure(make({ allow: LOOPBACK }).fetch(url));
      expect(err.code).toBe('connect');
    });

    it('keeps request headers and credentials out of error messages', async () => {
      const err = await failure(
        make({ allow: LOOPBACK }).fetch(`${echo.url}/hang?token=sekrit-q`, { totalTimeoutMs: 200, headers: { Authorization: 'Bearer sekrit-h' } }),
      );
      expect(err.message).not.toMatch(/sekrit/);
    });

    it('fails after close()', async () => {
      const e = createEgress({ allow: LOOPBACK });
      await e.fetch(`${echo.url}/echo`);
      await e.close();
      expect((await failure(e.fetch(`${echo.url}/echo`))).code).toBe('connect');
    });
  });
});
