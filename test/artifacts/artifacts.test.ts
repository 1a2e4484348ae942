import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepArtifacts } from '../../tools/artifacts/sweep.js';
import { storeArtifact } from '../../tools/artifacts/service.js';
import { contentOf } from '../../src/blobs/content.js';
import type { BlobStore } from '../../src/blobs/blob-store.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let a: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  a = await register(gw.url, 'art-owner');
});
afterAll(async () => gw.cleanup());

const MB = 1024 * 1024;
const create = (body: unknown, secret?: string) => api(gw.url, 'POST', '/artifacts', { body, secret });
const worker = () => ({ db: gw.gateway.db, clock: gw.clock, config: gw.gateway.config, log: gw.gateway.log, services: gw.gateway.registry.services });

describe('POST /artifacts', () => {
  it('hosts text at an unguessable URL with size, hash and expiry', async () => {
    const r = await create({ text: 'hello artifact', filename: 'hello.txt' });
    expect(r.status).toBe(201);
    expect(r.body.id).toMatch(/^art_[A-Za-z0-9_-]{32,}$/);
    expect(r.body.url).toBe(`${gw.url}/artifacts/${r.body.id}`);
    expect(r.body.bytes).toBe(14);
    expect(r.body.sha256).toBe(createHash('sha256').update('hello artifact').digest('hex'));
    expect(Date.parse(r.body.expires_at) - gw.clock.now()).toBe(24 * 3600 * 1000);
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await create({ text: 'same bytes' })).body.id);
    expect(ids.size).toBe(20);
  });

  it('enforces 1 MB / 24 h anonymous and 5 MB / 7 days registered, at the exact boundary', async () => {
    expect((await create({ base64: Buffer.alloc(MB, 1).toString('base64') })).status).toBe(201);
    const over = await create({ base64: Buffer.alloc(MB + 1, 1).toString('base64') });
    expect(over.status).toBe(413);
    expect(over.body.error.limit).toBe(MB);
    expect((await create({ base64: Buffer.alloc(5 * MB, 2).toString('base64') }, a.secret)).status).toBe(201);
    expect((await create({ base64: Buffer.alloc(5 * MB + 1, 2).toString('base64') }, a.secret)).status).toBe(413);
    const long = await create({ text: 'x', ttl_seconds: 30 * 24 * 3600 }, a.secret);
    expect(Date.parse(long.body.expires_at) - gw.clock.now()).toBe(7 * 24 * 3600 * 1000);
    const short = await create({ text: 'x', ttl_seconds: 60 });
    expect(Date.parse(short.body.expires_at) - gw.clock.now()).toBe(60_000);
  });

  it('decodes base64 in its usual spellings and refuses anything else', async () => {
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
    const std = bytes.toString('base64');
    const spellings = [std, bytes.toString('base64url'), std.replace(/=+$/, ''), std.replace(/(.{76})/g, '$1\n'), ` ${std} `];
    for (const base64 of spellings) {
      const r = await create({ base64 });
      expect(r.status, JSON.stringify(base64.slice(0, 20))).toBe(201);
      expect(r.body.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    // One stray character anywhere, at any length, is refused rather than skipped.
    for (const bad of [`${std.slice(0, 100)}!${std.slice(100)}`, `${std.slice(0, 101)}*${std.slice(101)}`, 'YWJj.ZGVm', 'YQ=YQ==', 'Y']) {
      const r = await create({ base64: bad });
      expect(r.status, bad.slice(0, 20)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'base64']);
    }
  });

  it('422 for bad input', async () => {
    expect((await create({})).status).toBe(422);
    expect((await create({ text: 'a', base64: 'YQ==' })).status).toBe(422);
    expect((await create({ base64: 'not base64!!' })).status).toBe(422);
    expect((await create({ text: 'a', content_type: 'text/html<script>' })).status).toBe(422);
    expect((await create({ text: 'a', ttl_seconds: 0 })).status).toBe(422);
  });
});

describe('POST /artifacts with the raw bytes as the body', () => {
  const upload = (body: Buffer | string, contentType: string, query = '', secret?: string) =>
    fetch(`${gw.url}/artifacts${query}`, { method: 'POST', headers: { 'content-type': contentType, ...(secret ? { authorization: `Bearer ${secret}` } : {}) }, body });

  it('stores the exact bytes with the request type, and filename and ttl from the query', async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    const r = await upload(bytes, 'image/png', '?filename=pic.png&ttl_seconds=120', a.secret);
    expect(r.status).toBe(201);
    const meta = (await r.json()) as any;
    expect(meta).toMatchObject({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), content_type: 'image/png', filename: 'pic.png' });
    expect(Date.parse(meta.expires_at) - gw.clock.now()).toBe(120_000);
    const got = await fetch(meta.url);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-disposition')).toContain('pic.png');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('takes text/plain as bytes too, and falls back to octet-stream for a type it cannot serve', async () => {
    const t = (await (await upload('plain words', 'text/plain; charset=utf-8')).json()) as any;
    expect(t).toMatchObject({ bytes: 11, content_type: 'text/plain; charset=utf-8', filename: 'artifact.bin' });
    const odd = (await (await upload('x', 'nonsense<script>')).json()) as any;
    expect(odd.content_type).toBe('application/octet-stream');
  });

  it("stores curl's default form type as octet-stream, and refuses a multipart form with how to send the file", async () => {
    const bytes = Buffer.from('line one\nline two\n\u0000binary');
    const meta = (await (await upload(bytes, 'application/x-www-form-urlencoded')).json()) as any;
    expect(meta.content_type).toBe('application/octet-stream');
    expect(Buffer.from(await (await fetch(meta.url)).arrayBuffer()).equals(bytes)).toBe(true);
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'hello.txt');
    const r = await fetch(`${gw.url}/artifacts`, { method: 'POST', body: form });
    expect(r.status).toBe(415);
    expect(((await r.json()) as any).error.message).toMatch(/--data-binary/);
  });

  it('applies the same limits (413) and refuses content given twice (422)', async () => {
    expect((await upload(Buffer.alloc(MB, 3), 'application/octet-stream')).status).toBe(201);
    const over = await upload(Buffer.alloc(MB + 1, 3), 'application/octet-stream');
    expect(over.status).toBe(413);
    expect(((await over.json()) as any).error.limit).toBe(MB);
    expect((await upload(Buffer.alloc(5 * MB + 1, 3), 'application/octet-stream', '', a.secret)).status).toBe(413);
    const twice = await upload('bytes', 'application/octet-stream', '?text=more');
    expect(twice.status).toBe(422);
    expect(((await twice.json()) as any).error.message).toMatch(/request body is the content/);
    expect((await upload('x', 'application/octet-stream', '?ttl_seconds=0')).status).toBe(422);
  });

  it('leaves other routes JSON-only (415)', async () => {
    expect((await api(gw.url, 'PUT', '/memory/notes/k', { raw: 'v', headers: { 'content-type': 'text/plain' }, secret: a.secret })).status).toBe(415);
  });
});

describe('GET /artifacts/{id}', () => {
  it('serves an attachment with nosniff, a strict CSP, an ETag, conditional GET and ranges', async () => {
    const up = await create({ text: '<html><script>alert(1)</script></html>', content_type: 'text/html', filename: 'page.html' });
    const url = `${gw.url}/artifacts/${up.body.id}`;
    const r = await fetch(url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="page.html"/);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('etag')).toBe(`"${up.body.sha256}"`);
    expect(await r.text()).toBe('<html><script>alert(1)</script></html>');
    expect((await fetch(url, { headers: { 'if-none-match': `"${up.body.sha256}"` } })).status).toBe(304);
    const part = await fetch(url, { headers: { range: 'bytes=6-13' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 6-13/${up.body.bytes}`);
    expect(await part.text()).toBe('<script>');
    const tail = await fetch(url, { headers: { range: 'bytes=-7' } });
    expect(await tail.text()).toBe('</html>');
    expect((await fetch(url, { headers: { range: 'bytes=999-' } })).status).toBe(416);
    const meta = await api(gw.url, 'GET', `/artifacts/${up.body.id}?meta=1`);
    expect(meta.body).toMatchObject({ id: up.body.id, bytes: up.body.bytes, sha256: up.body.sha256, content_type: 'text/html' });
    expect((await api(gw.url, 'GET', '/artifacts/art_doesnotexist0000000000000000')).status).toBe(404);
  });

  it('expires: 410 after the TTL (moved clock), bytes removed by the sweep, then gone (404)', async () => {
    const up = await create({ text: 'ephemeral artifact body', ttl_seconds: 60 });
    const blob = path.join(gw.dataDir, 'blobs', up.body.sha256.slice(0, 2), up.body.sha256.slice(2, 4), up.body.sha256);
    expect(fs.existsSync(blob)).toBe(true);
    gw.clock.advance(61_000);
    expect((await api(gw.url, 'GET', `/artifacts/${up.body.id}`)).status).toBe(410);
    gw.clock.advance(120_000);
    await sweepArtifacts(worker());
    expect(fs.existsSync(blob)).toBe(false);
    expect((await api(gw.url, 'GET', `/artifacts/${up.body.id}`)).status).toBe(410);
    gw.clock.advance(8 * 24 * 3600 * 1000);
    await sweepArtifacts(worker());
    expect((await api(gw.url, 'GET', `/artifacts/${up.body.id}`)).status).toBe(404);
  });

  it('keeps bytes another live artifact shares', async () => {
    const first = await create({ text: 'shared content', ttl_seconds: 60 }, a.secret);
    const second = await create({ text: 'shared content' }, a.secret);
    expect(second.body.sha256).toBe(first.body.sha256);
    gw.clock.advance(3 * 60_000);
    await sweepArtifacts(worker());
    const r = await fetch(`${gw.url}/artifacts/${second.body.id}`);
    expect(await r.text()).toBe('shared content');
  });
});

describe('storing bytes while the sweep runs', () => {
  /** The gateway's blob store, with a hook after each put. */
  const watched = (afterPut: () => Promise<void>): BlobStore => {
    const inner = gw.gateway.registry.services.blobs;
    return {
      put: async (c) => {
        await inner.put(c);
        await afterPut();
      },
      get: (sha) => inner.get(sha),
      has: (sha) => inner.has(sha),
      delete: (sha) => inner.delete(sha),
    };
  };
  const store = (blobs: BlobStore, text: string) =>
    storeArtifact(
      { ...worker(), services: { ...worker().services, blobs } },
      { content: contentOf(Buffer.from(text)), contentType: 'text/plain', filename: 'a.txt', ttlSeconds: 3600, agentId: null, source: 'upload' },
    );

  it('stores the bytes again when the sweep removed an old identical blob between writing and attaching them', async () => {
    const old = await create({ text: 'content the sweep is after', ttl_seconds: 60 });
    gw.clock.advance(3 * 60_000);
    let swept = 0;
    const blobs = watched(async () => {
      if (swept++ === 0) await sweepArtifacts(worker());
    });
    const again = await store(blobs, 'content the sweep is after');
    expect(again.sha256).toBe(old.body.sha256);
    expect(swept).toBe(2);
    const r = await fetch(again.url);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('content the sweep is after');
  });
});

describe('GET /artifacts (owner)', () => {
  it('lists metadata newest first, to the owner only', async () => {
    const b = await register(gw.url, 'art-lister');
    for (const t of ['one', 'two', 'three']) {
      await create({ text: t }, b.secret);
      gw.clock.advance(1000);
    }
    const r = await api(gw.url, 'GET', '/artifacts?limit=2', { secret: b.secret });
    expect(r.body.total).toBe(3);
    expect(r.body.artifacts.map((x: { bytes: number }) => x.bytes)).toEqual([5, 3]);
    expect(JSON.stringify(r.body)).not.toContain('three"');
    expect((await api(gw.url, 'GET', '/artifacts?offset=2', { secret: b.secret })).body.artifacts).toHaveLength(1);
    expect((await api(gw.url, 'GET', '/artifacts')).status).toBe(401);
    expect((await api(gw.url, 'GET', '/artifacts?handle=art-lister', { secret: a.secret })).status).toBe(403);
    expect((await api(gw.url, 'GET', '/artifacts', { secret: a.secret })).body.artifacts.every((x: { id: string }) => x.id)).toBe(true);
  });
});
