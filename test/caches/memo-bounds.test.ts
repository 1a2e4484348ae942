// The per-agent and per-entry memos are bounded, and a gateway at each bound answers as one with room: context
// cards (GATEWAY_MEMORY_CARD_CACHE, least recently read out), read counts for "most used"
// (GATEWAY_MEMORY_READ_COUNTS, starting over past it), XP memos (GATEWAY_AGENT_CACHE_ENTRIES) and built wall pages
// (GATEWAY_WALL_PAGE_CACHE_BYTES), and downloaded blobs (GATEWAY_BLOB_CACHE_BYTES).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../../src/blobs/blob-store.js';
import { contentOf } from '../../src/blobs/content.js';
import { cachedPage } from '../../tools/wall/page-cache.js';
import { eventually } from '../helpers/eventually.js';
import { api, register, startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({
    env: { GATEWAY_MEMORY_CARD_CACHE: '1', GATEWAY_MEMORY_READ_COUNTS: '1', GATEWAY_AGENT_CACHE_ENTRIES: '1', GATEWAY_WALL_PAGE_CACHE_BYTES: '0' },
  });
});
afterAll(async () => gw.cleanup());

const card = async (a: { handle: string; secret: string }) => (await api(gw.url, 'GET', `/memory/context/${a.handle}`, { secret: a.secret })).body;

describe('context cards at GATEWAY_MEMORY_CARD_CACHE', () => {
  it('keeps the most recently read card; another agent reading its own pushes it out, and it is built again', async () => {
    const a = await register(gw.url, 'cb-card-a');
    const b = await register(gw.url, 'cb-card-b');
    await api(gw.url, 'PUT', '/memory/notes/one', { secret: a.secret, body: { value: 'a note' } });
    expect((await card(a)).cached).toBe(false);
    expect((await card(a)).cached).toBe(true);
    expect((await card(b)).cached).toBe(false);
    const again = await card(a);
    expect(again.cached).toBe(false);
    expect(again.recent.map((e: { key: string }) => e.key)).toEqual(['one']);
    expect((await card(a)).cached).toBe(true);
  });

  it('still refuses another agent\'s card', async () => {
    const a = await register(gw.url, 'cb-card-c');
    const b = await register(gw.url, 'cb-card-d');
    expect((await api(gw.url, 'GET', `/memory/context/${a.handle}`, { secret: b.secret })).status).toBe(403);
  });
});

describe('read counts at GATEWAY_MEMORY_READ_COUNTS', () => {
  it('counts reads of the entries it holds and starts over past the bound', async () => {
    const a = await register(gw.url, 'cb-reads');
    await api(gw.url, 'PUT', '/memory/notes/hot', { secret: a.secret, body: { value: 1 } });
    await api(gw.url, 'PUT', '/memory/notes/cold', { secret: a.secret, body: { value: 2 } });
    for (let i = 0; i < 3; i++) await api(gw.url, 'GET', '/memory/notes/hot', { secret: a.secret });
    expect((await card(a)).most_used).toEqual([expect.objectContaining({ key: 'hot', reads: 3 })]);
    // A second entry read: one count is all the bound holds, so the counts start over with it.
    await api(gw.url, 'GET', '/memory/notes/cold', { secret: a.secret });
    await api(gw.url, 'PUT', '/memory/notes/touch', { secret: a.secret, body: { value: 3 } }); // a write refreshes the card
    expect((await card(a)).most_used).toEqual([expect.objectContaining({ key: 'cold', reads: 1 })]);
  });
});

describe('XP memos at GATEWAY_AGENT_CACHE_ENTRIES', () => {
  it('awards each agent its XP and badge once however the memo turns over', async () => {
    const agents = [await register(gw.url, 'cb-xp-a'), await register(gw.url, 'cb-xp-b')];
    for (let round = 0; round < 3; round++) {
      for (const a of agents) expect((await api(gw.url, 'POST', '/wall', { secret: a.secret, body: { text: `round ${round} from ${a.handle}` } })).status).toBe(201);
    }
    for (const a of agents) {
      const xp = (await eventually(async () => {
        const body = (await api(gw.url, 'GET', `/xp/${a.handle}`, { secret: a.secret })).body;
        expect(body.badges).toEqual(['first-words']);
        return body;
      })) as { entries: { rule: string }[] };
      // One first post and one posting day, however often the memo forgot what the ledger holds.
      expect(xp.entries.map((e) => e.rule).sort()).toEqual(['first_post', 'wall_day']);
    }
  });
});

describe('wall pages at GATEWAY_WALL_PAGE_CACHE_BYTES', () => {
  it('serves every page fresh with no room to keep one', async () => {
    const a = await register(gw.url, 'cb-wall');
    await api(gw.url, 'POST', '/wall', { secret: a.secret, body: { text: 'first of two' } });
    expect((await api(gw.url, 'GET', '/wall?handle=cb-wall')).body.posts.map((p: { text: string }) => p.text)).toEqual(['first of two']);
    await api(gw.url, 'POST', '/wall', { secret: a.secret, body: { text: 'second of two' } });
    expect((await api(gw.url, 'GET', '/wall?handle=cb-wall')).body.posts.map((p: { text: string }) => p.text)).toEqual(['second of two', 'first of two']);
  });

  it('keeps pages up to the bytes given and builds the one pushed out again (unit)', async () => {
    let builds = 0;
    const build = async () => (builds++, 'page');
    const read = (key: string) => cachedPage(gw.gateway.db, key, build, () => 60, 100);
    await read('one');
    await read('one');
    expect(builds).toBe(1);
    await read('two'); // 120 bytes: 'one' goes
    await read('one');
    expect(builds).toBe(3);
  });
});

describe('downloaded blobs at GATEWAY_BLOB_CACHE_BYTES', () => {
  // A blob served from the cache is served even once its file is gone: what the cache still holds shows.
  const served = async (cacheBytes: number, sizes: number[]) => {
    const dir = tempDir();
    try {
      const store = new FsBlobStore(dir, cacheBytes);
      const blobs = sizes.map((n, i) => contentOf(Buffer.alloc(n, i + 1)));
      for (const b of blobs) {
        await store.put(b);
        await store.get(b.sha256);
      }
      for (const b of blobs) fs.rmSync(path.join(dir, b.sha256.slice(0, 2), b.sha256.slice(2, 4), b.sha256));
      return Promise.all(blobs.map(async (b) => (await store.get(b.sha256)) !== null));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('keeps the most recent blobs that fit and drops the older ones', async () => {
    expect(await served(1000, [400, 400, 400])).toEqual([false, true, true]);
  });

  it('keeps none with a bound of 0; a missing blob is null, not an error', async () => {
    expect(await served(0, [10])).toEqual([false]);
  });
});
