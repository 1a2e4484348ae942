// The browse verb end to end: a real gateway, a loopback site allowed through GATEWAY_EGRESS_ALLOW, and the
// official v2 SDK client pinned to 2026-07-28 and in legacy mode over Streamable HTTP.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startSite, type Site } from './site.js';

const MODES = { 'v2 pinned to 2026-07-28': { pin: '2026-07-28' }, 'v2 legacy': 'legacy' } as const;
type Mode = keyof typeof MODES;

interface Result {
  isError?: boolean;
  structuredContent?: any;
  content: { type: string; text?: string }[];
}

let gw: TestGateway;
let site: Site;
let key: string;

beforeAll(async () => {
  site = await startSite({ bigBytes: 300_000, slowMs: 3_000 });
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_BROWSE_MAX_BYTES: '200000', GATEWAY_BROWSE_TIMEOUT_SECONDS: '1' } });
  key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'browse@example.com' } })).body.key;
});

/** Browses counted against the key's monthly allowance for browse. */
const browsesUsed = async (): Promise<number> => (await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.per_tool.browse.used;

afterAll(async () => {
  await gw?.cleanup();
  await site?.close();
});

const errorOf = (r: Result): { error: { code: string; message: string; reason?: string }; status: number } => {
  if (!r.isError) throw new Error(`expected an error, got ${JSON.stringify(r.structuredContent)}`);
  return JSON.parse(r.content[0]!.text!);
};

describe.each(Object.keys(MODES) as Mode[])('browse over MCP (%s)', (mode) => {
  let client: Client;
  const browse = async (args: Record<string, unknown>): Promise<Result> => (await client.callTool({ name: 'browse', arguments: args })) as Result;

  beforeAll(async () => {
    client = new Client({ name: 'browse-test', version: '1' }, { versionNegotiation: { mode: MODES[mode] } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  });
  afterAll(async () => client?.close());

  it('lists browse', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'browse');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    // The result's structuredContent follows it (the SDK client checks every result against it).
    expect(tool?.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['final_url', 'content', 'links']) });
  });

  it('reads an article: title, byline, Markdown, headings, absolute links, language', async () => {
    const r = await browse({ url: `${site.url}/article` });
    expect(r.isError).toBeFalsy();
    const p = r.structuredContent;
    expect(p.title).toContain('The Quiet Harbour');
    expect(p.byline).toContain('Ada Lovelace');
    expect(p.lang).toBe('en-GB');
    expect(p.kind).toBe('html');
    expect(p.content_type).toBe('text/html');
    expect(p.format).toBe('markdown');
    expect(p.content).toMatch(/^## Morning$/m);
    expect(p.content).toContain(`[history of the harbour](${site.url}/history)`);
    expect(p.content).not.toContain('Copyright');
    expect(p.headings).toEqual(expect.arrayContaining([{ level: 2, text: 'Morning' }, { level: 2, text: 'Evening' }]));
    expect(p.links).toEqual(expect.arrayContaining([{ text: 'history of the harbour', href: `${site.url}/history` }, { text: 'tide tables', href: 'https://example.org/tides' }]));
    expect(p.final_url).toBe(`${site.url}/article`);
  });

  it('gives text and html formats and honours max_chars', async () => {
    const text = (await browse({ url: `${site.url}/article`, format: 'text' })).structuredContent;
    expect(text.content).toContain('The boats come in slowly');
    expect(text.content).not.toContain('##');
    const html = (await browse({ url: `${site.url}/article`, format: 'html' })).structuredContent;
    expect(html.content).toContain('<h2>Morning</h2>');
    const cut = (await browse({ url: `${site.url}/article`, max_chars: 40 })).structuredContent;
    expect(cut.content.length).toBe(40);
    expect(cut.truncated).toBe(true);
    expect(cut.total_chars).toBeGreaterThan(40);
  });

  it('narrows to a CSS selector', async () => {
    const p = (await browse({ url: `${site.url}/article`, selector: '#side' })).structuredContent;
    expect(p.content).toContain('Sidebar note');
    expect(p.content).not.toContain('boats');
    expect(p.links).toEqual([{ text: 'another story', href: `${site.url}/other` }]);
    expect(p.title).toContain('The Quiet Harbour');
    expect(errorOf(await browse({ url: `${site.url}/article`, selector: '#nothing-here' })).error.code).toBe('validation_error');
  });

  it('reads the charset a page names in a <meta>', async () => {
    const p = (await browse({ url: `${site.url}/latin1`, format: 'text' })).structuredContent;
    expect(p.title).toBe('Café');
    expect(p.content).toContain('crème brûlée');
  });

  it('follows a redirect and reports the final URL', async () => {
    const p = (await browse({ url: `${site.url}/redirect` })).structuredContent;
    expect(p.url).toBe(`${site.url}/redirect`);
    expect(p.final_url).toBe(`${site.url}/article`);
    expect(p.title).toContain('The Quiet Harbour');
  });

  it("refuses what robots.txt disallows for the gateway's user agent", async () => {
    const before = site.hits.get('/private/article') ?? 0;
    for (const path of ['/private/article', '/no-gateway']) {
      const e = errorOf(await browse({ url: `${site.url}${path}` }));
      expect(e.error.code).toBe('forbidden');
      expect(e.error.reason).toBe('robots_disallowed');
      expect(e.error.message).toMatch(/robots\.txt/);
    }
    expect(site.hits.get('/private/article') ?? 0).toBe(before);
  });

  it('passes plain text and JSON through', async () => {
    const t = (await browse({ url: `${site.url}/plain` })).structuredContent;
    expect(t).toMatchObject({ kind: 'text', content_type: 'text/plain', content: 'line one\n  line two\n', format: 'text' });
    const j = (await browse({ url: `${site.url}/data.json` })).structuredContent;
    expect(j).toMatchObject({ kind: 'json', content_type: 'application/json' });
    expect(JSON.parse(j.content)).toEqual({ a: 1, b: [true, null] });
  });

  it('gives the text of a PDF', async () => {
    const p = (await browse({ url: `${site.url}/doc.pdf` })).structuredContent;
    expect(p).toMatchObject({ kind: 'pdf', content_type: 'application/pdf', pages: 1 });
    expect(p.content).toContain('Hello PDF world');
    // A damaged one is a clear 415 (read on the PDF thread, which survives it for the next PDF).
    const broken = errorOf(await browse({ url: `${site.url}/broken.pdf` }));
    expect(broken.error).toMatchObject({ code: 'unsupported_media_type', reason: 'unreadable_pdf' });
    expect((await browse({ url: `${site.url}/doc.pdf` })).structuredContent.content).toContain('Hello PDF world');
  });

  it('refuses an oversized page, a slow one and an image with clear errors', async () => {
    const big = errorOf(await browse({ url: `${site.url}/big` }));
    expect(big.error.code).toBe('payload_too_large');
    expect(big.error.message).toMatch(/200000/);
    const slow = errorOf(await browse({ url: `${site.url}/slow` }));
    expect(slow.error.code).toBe('upstream_error');
    expect(slow.error.reason).toBe('timeout');
    const img = errorOf(await browse({ url: `${site.url}/image.png` }));
    expect(img.error.code).toBe('unsupported_media_type');
    expect(img.error.message).toMatch(/image\/png/);
    const missing = errorOf(await browse({ url: `${site.url}/missing` }));
    expect(missing.error).toMatchObject({ code: 'upstream_error', reason: 'upstream_status' });
  });

  it('refuses private and metadata addresses before any connection', async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:1/']) {
      const started = Date.now();
      const e = errorOf(await browse({ url }));
      expect(e.error.code).toBe('forbidden');
      expect(e.error.reason).toBe('blocked_address');
      expect(Date.now() - started).toBeLessThan(900); // refused at once, not after a connect timeout
    }
    expect(errorOf(await browse({ url: 'file:///etc/passwd' })).error.code).toBe('validation_error');
    expect(errorOf(await browse({ url: 'not a url' })).error.code).toBe('validation_error');
  });

  it('revalidates a cached page with If-None-Match and reuses the body on 304', async () => {
    const url = `${site.url}/etag?m=${encodeURIComponent(mode)}`;
    const first = (await browse({ url })).structuredContent;
    expect(first.cache).toBe('miss');
    const second = (await browse({ url })).structuredContent;
    expect(second.cache).toBe('revalidated');
    expect(second.content).toBe(first.content);
    expect(second.title).toBe(first.title);
    expect(site.conditional).toContain(`?m=${encodeURIComponent(mode)}|"v1"`);
  });
});

describe('browse is paid beyond a free allowance', () => {
  it('a free key has a monthly allowance; a browse counts once, a failed one not at all', async () => {
    const usage = (await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.per_tool.browse;
    expect(usage.limit).toBe(1000);
    const client = new Client({ name: 'browse-paid', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    try {
      const before = await browsesUsed();
      expect(((await client.callTool({ name: 'browse', arguments: { url: `${site.url}/article` } })) as Result).isError).toBeFalsy();
      expect(await browsesUsed()).toBe(before + 1);
      for (const url of [`${site.url}/private/article`, 'http://169.254.169.254/latest', `${site.url}/image.png`]) {
        expect(((await client.callTool({ name: 'browse', arguments: { url } })) as Result).isError, url).toBe(true);
      }
      expect(await browsesUsed()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it('without a key or payment, answers the x402 payment requirements', async () => {
    const client = new Client({ name: 'browse-unpaid', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
    try {
      const r = (await client.callTool({ name: 'browse', arguments: { url: `${site.url}/article` } })) as Result & { _meta?: Record<string, any> };
      expect(r.isError).toBe(true);
      expect(r._meta?.['x402/payment-required']).toMatchObject({ x402Version: 2, accepts: [expect.objectContaining({ amount: '2000' })] });
    } finally {
      await client.close();
    }
  });
});

describe('browse is MCP-only', () => {
  it('is 404 over REST', async () => {
    const r = await api(gw.url, 'POST', '/tools/browse', { body: { url: `${site.url}/article` } });
    expect(r.status).toBe(404);
  });
});
