// robots.txt rules beyond the plain case, on the Browser with its own egress: a 5xx disallows everything, a 404
// allows everything, and a robots.txt redirected to another origin still rules the origin that was asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEgress, type Egress } from '../../src/egress/index.js';
import { Browser } from '../../tools/browse/page.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const servers: http.Server[] = [];
async function serve(handler: Handler): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const page: Handler = (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');

let egress: Egress;
let browser: Browser;
let down: string;
let none: string;
let moved: string;

beforeAll(async () => {
  egress = createEgress({ allow: ['127.0.0.1/32'] });
  browser = new Browser(egress, { maxBytes: 100_000, timeoutMs: 5_000, cacheBytes: 1_000_000 });
  down = await serve((req, res) => (req.url === '/robots.txt' ? void res.writeHead(503).end() : page(req, res)));
  none = await serve((req, res) => (req.url === '/robots.txt' ? void res.writeHead(404).end() : page(req, res)));
  const rules = await serve((req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /x\n'));
  moved = await serve((req, res) => (req.url === '/robots.txt' ? void res.writeHead(301, { location: `${rules}/robots.txt` }).end() : page(req, res)));
});

afterAll(async () => {
  await egress?.close();
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

const reasonOf = (p: Promise<unknown>) => p.then(() => 'allowed', (e: { extra?: { reason?: string } }) => e.extra?.reason);

it('a robots.txt answering 5xx disallows everything; a 404 allows everything', async () => {
  expect(await reasonOf(browser.browse(`${down}/page`, 'markdown', undefined, 0))).toBe('robots_disallowed');
  expect(await reasonOf(browser.browse(`${none}/page`, 'markdown', undefined, 0))).toBe('allowed');
});

it('a robots.txt redirected elsewhere still rules the origin asked', async () => {
  expect(await reasonOf(browser.browse(`${moved}/x/page`, 'markdown', undefined, 0))).toBe('robots_disallowed');
  expect(await reasonOf(browser.browse(`${moved}/y`, 'markdown', undefined, 0))).toBe('allowed');
});
