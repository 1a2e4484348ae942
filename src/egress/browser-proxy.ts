// A forward proxy for a browser the gateway drives (Lighthouse's Chromium, docs/decisions/commercial-seo.md): the
// browser is started with this proxy for every scheme and resolves no name itself, so each request it makes (the
// page, subresources, redirects, WebSockets, service workers) arrives here, and is connected only to an address the
// egress policy allows, resolved once by the gateway (no rebinding between check and connect). A refused request
// gets 403 and is recorded by origin, never with its path or query. Bytes through the proxy are capped per run.
// It listens on 127.0.0.1, on a free port, for one run.
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Egress } from './egress.js';
import { EgressError, describeOrigin } from './errors.js';
import { parseTarget } from './resolve.js';

export interface BlockedRequest {
  /** scheme://host[:port] only. */
  origin: string;
  reason: string;
}

export interface BrowserProxy {
  /** For Chromium's --proxy-server. */
  url: string;
  /** Refused requests, one entry per origin and reason, in the order first seen. */
  readonly blocked: BlockedRequest[];
  /** Bytes received from upstream so far. */
  bytes(): number;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own; never forwarded upstream. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);

const reasonOf = (err: unknown): string => (err instanceof EgressError ? err.message : `the connection failed (${(err as NodeJS.ErrnoException).code ?? 'error'})`);

export async function startBrowserProxy(egress: Egress, opts: { maxBytes: number }): Promise<BrowserProxy> {
  const blocked: BlockedRequest[] = [];
  const sockets = new Set<Duplex>();
  let received = 0;

  const refuse = (origin: string, reason: string) => {
    if (!blocked.some((b) => b.origin === origin && b.reason === reason)) blocked.push({ origin, reason });
  };
  const track = <T extends Duplex>(s: T): T => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    return s;
  };
  /** Counts upstream bytes; past the budget every connection of the run is cut. */
  const count = (origin: string) => (chunk: Buffer) => {
    received += chunk.length;
    if (received > opts.maxBytes) {
      refuse(origin, `the run's download budget of ${opts.maxBytes} bytes was spent`);
      for (const s of sockets) s.destroy();
    }
  };
  /** Resolves and checks the host as every egress fetch does; the first allowed address is the one connected. */
  const addressOf = async (host: string) => (await egress.resolve(host))[0];

  const server = http.createServer((req, res) => {
    track(req.socket);
    let target;
    try {
      target = parseTarget(req.url ?? '');
      if (target.url.protocol !== 'http:') throw new EgressError('scheme', 'A proxied plain request must be http.');
    } catch (err) {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end(reasonOf(err));
    }
    const origin = describeOrigin(target.url);
    if (received > opts.maxBytes) return void res.writeHead(403).end();
    addressOf(target.host).then(
      (addr) => {
        // The Host is the request target's authority (RFC 9112 §3.2.2), whatever the client sent.
        const headers = { ...Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k))), host: target.url.host };
        const up = http.request(
          { host: addr.address, family: addr.family, port: Number(target.url.port) || 80, method: req.method, path: target.url.pathname + target.url.search, headers, setHost: false, agent: false },
          (upRes) => {
            upRes.on('data', count(origin));
            const pairs: string[] = [];
            for (let i = 0; i < upRes.rawHeaders.length; i += 2) {
              if (!HOP.has(upRes.rawHeaders[i].toLowerCase())) pairs.push(upRes.rawHeaders[i], upRes.rawHeaders[i + 1]);
            }
            res.writeHead(upRes.statusCode ?? 502, pairs);
            upRes.pipe(res);
          },
        );
        up.on('error', (err) => {
          refuse(origin, reasonOf(err));
          if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        req.pipe(up);
      },
      (err: unknown) => {
        refuse(origin, reasonOf(err));
        res.writeHead(403, { 'content-type': 'text/plain' }).end('Refused by the gateway’s egress policy.');
      },
    );
  });

  // HTTPS and WebSockets: a tunnel to the checked address; the browser does TLS end to end.
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    let target;
    try {
      target = parseTarget(`https://${req.url ?? ''}/`);
    } catch (err) {
      return void client.end(`HTTP/1.1 400 Bad Request\r\n\r\n${reasonOf(err)}`);
    }
    const origin = describeOrigin(target.url);
    if (received > opts.maxBytes) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    addressOf(target.host).then(
      (addr) => {
        const up = track(net.connect({ host: addr.address, family: addr.family, port: Number(target.url.port) || 443 }));
        up.once('connect', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) up.write(head);
          up.on('data', count(origin));
          up.pipe(client);
          client.pipe(up);
        });
        up.on('error', (err) => {
          refuse(origin, reasonOf(err));
          if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        });
        client.once('close', () => up.destroy());
      },
      (err: unknown) => {
        refuse(origin, reasonOf(err));
        client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    blocked,
    bytes: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
