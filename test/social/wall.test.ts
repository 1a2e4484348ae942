// The wall end to end: posting, mentions, topics, threads, quotes, reactions, polling, /topics windows,
// rate limits, plain text, search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let alice: { handle: string; secret: string };
let bob: { handle: string; secret: string };
let carol: { handle: string; secret: string };

const post = (who: { secret: string }, body: Record<string, unknown>) => api(gw.url, 'POST', '/wall', { body, secret: who.secret });
const tray = async (who: { secret: string }, kind?: string) =>
  (await api(gw.url, 'GET', `/notifications${kind ? `?kind=${kind}` : ''}`, { secret: who.secret })).body.notifications as { kind: string; title: string; data: any }[];
/** A minute later, so the per-minute posting window never trips tests that are not about it. */
const later = () => gw.clock.advance(61_000);

beforeAll(async () => {
  gw = await startGateway();
  alice = await register(gw.url, 'alice');
  bob = await register(gw.url, 'bob');
  carol = await register(gw.url, 'carol');
});
afterAll(async () => gw.cleanup());

describe('posting', () => {
  it('stores plain text with kind, normalised topics and existing mentions only', async () => {
    const r = await post(alice, { text: 'Hello @Bob and @nobody-here, mail me at alice@example.com #Intro_Posts #intro-posts #SQLite', kind: 'announcement' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ handle: 'alice', kind: 'announcement', topics: ['intro-posts', 'sqlite'], mentions: ['bob'], reply_to: null, quote_of: null });
    expect(r.body.reactions).toEqual({ like: 0, verified: 0, reproduced: 0, insightful: 0, thanks: 0 });
    expect(r.body.url).toBe(`${gw.url}/wall/${r.body.post_id}`);
    const mention = (await tray(bob, 'mention'))[0];
    expect(mention).toMatchObject({ kind: 'mention', data: { from: 'alice', post_id: r.body.post_id } });
    expect(await tray(carol)).toEqual([]);
    // The mention is recorded by the insert trigger, which leaves no agent id behind in the post row.
    expect((await api(gw.url, 'GET', `/wall/${r.body.post_id}`)).body.post.mentions).toEqual(['bob']);
    const row = await gw.gateway.db.get<{ mention_ids: string | null }>('SELECT mention_ids FROM wall_posts WHERE id = ?', [r.body.post_id]);
    expect(row).toEqual({ mention_ids: null });
  });

  it('caps mentions per post at 10 and never notifies the author', async () => {
    later();
    for (let i = 0; i < 11; i++) await register(gw.url, `fan-${i}`);
    const text = `@alice ${Array.from({ length: 11 }, (_, i) => `@fan-${i}`).join(' ')}`;
    const r = await post(alice, { text });
    expect(r.body.mentions).toHaveLength(10);
    expect(r.body.mentions).not.toContain('alice');
    expect(r.body.mentions).not.toContain('fan-10');
  });

  it('answers a new post exactly as reading it back shows it', async () => {
    later();
    gw.clock.advance(7); // a timestamp with milliseconds
    const made = (await post(bob, { text: 'Naïve café ☕ for @carol and @alice #Coffee', kind: 'question' })).body;
    expect((await api(gw.url, 'GET', `/wall/${made.post_id}`)).body.post).toEqual(made);
    const quote = (await api(gw.url, 'POST', `/wall/${made.post_id}/quote`, { body: { text: 'Same here' }, secret: carol.secret })).body;
    expect((await api(gw.url, 'GET', `/wall/${quote.post_id}`)).body.post).toEqual(quote);
    expect(made).toMatchObject({ mentions: ['alice', 'carol'], quoted: null, created_at: new Date(gw.clock.now()).toISOString() });
  });

  it('returns text verbatim as JSON, never rendered as HTML', async () => {
    later();
    const r = await post(carol, { text: '<script>alert(1)</script> & <b>bold</b>' });
    expect(r.status).toBe(201);
    const res = await fetch(`${gw.url}/wall/${r.body.post_id}`, { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(((await res.json()) as { post: { text: string } }).post.text).toBe('<script>alert(1)</script> & <b>bold</b>');
  });

  it('stores text as well-formed UTF-8: a lone surrogate reads as U+FFFD everywhere, and pages stay valid UTF-8', async () => {
    later();
    const made = (await post(alice, { text: 'half \ud800 an emoji \udc00 #surrogates' })).body;
    expect(made.text).toBe('half \ufffd an emoji \ufffd #surrogates');
    expect((await api(gw.url, 'GET', `/wall/${made.post_id}`)).body.post).toEqual(made);
    for (const path of ['/wall?limit=5', '/wall?topic=surrogates', `/wall?handle=alice&limit=5`]) {
      const bytes = new Uint8Array(await (await fetch(`${gw.url}${path}`)).arrayBuffer());
      const page = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      expect(page.posts.find((p: { post_id: number }) => p.post_id === made.post_id).text).toBe(made.text);
    }
  });

  it('refuses a post or a mail holding a credential, without echoing it', async () => {
    later();
    const key = `agk_live_${'k'.repeat(20)}${'Q9_-'.repeat(5)}abc`;
    for (const [credential, text] of [[alice.secret, `my secret is ${alice.secret} ok`], [key, `key=${key}`]]) {
      const r = await post(alice, { text });
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).not.toContain(credential);
    }
    expect(JSON.stringify((await api(gw.url, 'GET', '/wall?limit=20')).body)).not.toContain(alice.secret);
    const mail = await api(gw.url, 'POST', '/mail', { body: { to: 'bob', body: `use ${alice.secret}` }, secret: alice.secret });
    expect(mail.status).toBe(422);
    expect(JSON.stringify(mail.body)).not.toContain(alice.secret);
    // Talking about the prefixes is fine.
    expect((await post(alice, { text: 'Secrets start with ags_ and keys with agk_live_, never post them.' })).status).toBe(201);
  });

  it('counts the text limit in characters: an emoji is one', async () => {
    later();
    expect((await post(bob, { text: '😀'.repeat(2000) })).status).toBe(201);
    later();
    const over = await post(bob, { text: '😀'.repeat(2001) });
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({ code: 'payload_too_large', limit: 2000, size: 2001 });
  });

  it('validates text, kind and links', async () => {
    later();
    expect((await post(alice, { text: '   ' })).status).toBe(422);
    expect((await post(alice, { text: 'x'.repeat(2001) })).status).toBe(413);
    expect((await post(alice, { text: 'hi', kind: 'rant' })).status).toBe(422);
    expect((await post(alice, { text: 'an answer', kind: 'answer' })).status).toBe(422);
    expect((await post(alice, { text: 'reply', reply_to: 999_999 })).status).toBe(404);
    expect((await api(gw.url, 'POST', '/wall', { body: { text: 'anon' } })).status).toBe(401);
  });

  it('limits posts per handle per minute, with Retry-After', async () => {
    later();
    const spammer = await register(gw.url, 'spammer');
    for (let i = 0; i < 10; i++) expect((await post(spammer, { text: `post ${i}` })).status).toBe(201);
    const over = await post(spammer, { text: 'one too many' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another handle is not affected; the window slides.
    expect((await post(carol, { text: 'still fine' })).status).toBe(201);
    gw.clock.advance(61_000);
    expect((await post(spammer, { text: 'back again' })).status).toBe(201);
  });

  it('limits posts per handle per hour too', async () => {
    later();
    const busy = await register(gw.url, 'busy-poster');
    for (let i = 0; i < 120; i++) {
      if (i > 0 && i % 10 === 0) gw.clock.advance(61_000);
      expect((await post(busy, { text: `hour post ${i}` })).status).toBe(201);
    }
    gw.clock.advance(61_000);
    const over = await post(busy, { text: 'the 121st within the hour' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(60);
    gw.clock.advance(3600_000);
    expect((await post(busy, { text: 'a new hour' })).status).toBe(201);
  });
});

describe('threads and quotes', () => {
  it('returns a post with its whole reply thread, and a reply with its context', async () => {
    later();
    const root = (await post(alice, { text: 'Does FTS5 trigram beat porter here? #search', kind: 'question' })).body;
    const a1 = (await post(bob, { text: 'Trigram for substrings.', kind: 'answer', reply_to: root.post_id })).body;
    const a2 = (await post(carol, { text: 'Porter for words.', kind: 'answer', reply_to: root.post_id })).body;
    const deep = (await post(alice, { text: 'Thanks, testing both.', reply_to: a1.post_id })).body;
    expect(deep.thread_root).toBe(root.post_id);
    const thread = (await api(gw.url, 'GET', `/wall/${root.post_id}`)).body;
    expect(thread.post.replies).toBe(2);
    expect(thread.replies.map((p: { post_id: number }) => p.post_id)).toEqual([a1.post_id, a2.post_id, deep.post_id]);
    expect(thread.replies[2].reply_to).toBe(a1.post_id);
    const sub = (await api(gw.url, 'GET', `/wall/${a1.post_id}`)).body;
    expect(sub.context.map((p: { post_id: number }) => p.post_id)).toEqual([root.post_id]);
    expect(sub.replies.map((p: { post_id: number }) => p.post_id)).toEqual([deep.post_id]);
    // The question's author hears about replies as replies.
    const replies = await tray(alice, 'reply');
    expect(replies.some((n) => n.data.post_id === a1.post_id && n.data.from === 'bob')).toBe(true);
    expect((await api(gw.url, 'GET', '/wall/999999')).status).toBe(404);
    expect((await api(gw.url, 'GET', '/wall/abc')).status).toBe(422);
  });

  it('keeps a thread whole when a reply in the middle is deleted', async () => {
    later();
    const root = (await post(alice, { text: 'A thread to break' })).body;
    const middle = (await post(bob, { text: 'In the middle', reply_to: root.post_id })).body;
    const below = (await post(carol, { text: 'Below the middle', reply_to: middle.post_id })).body;
    expect((await api(gw.url, 'DELETE', `/wall/${middle.post_id}`, { secret: bob.secret })).status).toBe(200);
    const thread = (await api(gw.url, 'GET', `/wall/${root.post_id}`)).body;
    expect(thread.replies.map((p: { post_id: number }) => p.post_id)).toEqual([below.post_id]);
    expect(thread.replies[0].reply_to).toBe(middle.post_id);
    const sub = (await api(gw.url, 'GET', `/wall/${below.post_id}`)).body;
    expect(sub.context.map((p: { post_id: number }) => p.post_id)).toEqual([root.post_id]);
  });

  it('quotes a post with an own take and notifies its author', async () => {
    later();
    const original = (await post(bob, { text: 'SQLite does 50k inserts/s in WAL mode #sqlite', kind: 'result' })).body;
    const q = await api(gw.url, 'POST', `/wall/${original.post_id}/quote`, { body: { text: 'Confirmed on my laptop.' }, secret: carol.secret });
    expect(q.status).toBe(201);
    expect(q.body).toMatchObject({ quote_of: original.post_id, quoted: { post_id: original.post_id, handle: 'bob' } });
    expect((await api(gw.url, 'GET', `/wall/${original.post_id}`)).body.post.quotes).toBe(1);
    expect((await tray(bob, 'quote'))[0].data).toMatchObject({ from: 'carol', quote_of: original.post_id });
    // Naming the quoted author in the quote tells them once, as a quote.
    later();
    const named = (await api(gw.url, 'POST', `/wall/${original.post_id}/quote`, { body: { text: 'Right, @bob?' }, secret: carol.secret })).body;
    expect(named.mentions).toEqual(['bob']);
    const about = (await tray(bob)).filter((n) => n.data.post_id === named.post_id);
    expect(about.map((n) => n.kind)).toEqual(['quote']);
    expect((await api(gw.url, 'POST', '/wall/999999/quote', { body: { text: 'x' }, secret: carol.secret })).status).toBe(404);
  });

  it('POST /wall takes the quoted post as `quote` (the spec) or `quote_of`; both with different ids is 422', async () => {
    later();
    const original = (await post(bob, { text: 'Quote me #quotes' })).body;
    const other = (await post(bob, { text: 'Or me #quotes' })).body;
    later();
    const q = await post(carol, { text: 'Quoted by its spec name', quote: original.post_id });
    expect(q.status).toBe(201);
    expect(q.body).toMatchObject({ quote_of: original.post_id, quoted: { post_id: original.post_id, handle: 'bob' } });
    expect((await post(carol, { text: 'Both names, one post', quote: other.post_id, quote_of: other.post_id })).body.quote_of).toBe(other.post_id);
    const both = await post(carol, { text: 'Two different posts', quote: original.post_id, quote_of: other.post_id });
    expect(both.status).toBe(422);
    expect(both.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([['body', 'quote']]);
  });

  it('refuses unknown body fields with 422 instead of posting without them', async () => {
    later();
    const before = (await api(gw.url, 'GET', `/wall?handle=${carol.handle}`)).body.count;
    const r = await post(carol, { text: 'Quoting with a misspelled field', quoted: 1 });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([{ loc: ['body', 'quoted'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
    expect((await api(gw.url, 'GET', `/wall?handle=${carol.handle}`)).body.count).toBe(before);
  });
});

describe('reactions', () => {
  it('accepts names and emoji, is idempotent per kind, and can be removed', async () => {
    later();
    const p = (await post(alice, { text: 'Result: 2x faster with prepared statements', kind: 'result' })).body;
    const react = (who: { secret: string }, reaction: string) => api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { reaction }, secret: who.secret });
    const first = await react(bob, '✅');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ reaction: 'verified', emoji: '✅', added: true });
    const again = await react(bob, 'verified');
    expect(again.body.added).toBe(false);
    expect(again.body.reactions.verified).toBe(1);
    await react(bob, '👍');
    await react(carol, '❤️');
    expect((await api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { kind: '🔁' }, secret: carol.secret })).body.reaction).toBe('reproduced');
    const counts = (await api(gw.url, 'GET', `/wall/${p.post_id}`)).body.post.reactions;
    expect(counts).toEqual({ like: 2, verified: 1, reproduced: 1, insightful: 0, thanks: 0 });
    const removed = await api(gw.url, 'DELETE', `/wall/${p.post_id}/react?reaction=%F0%9F%91%8D`, { secret: bob.secret });
    expect(removed.body).toMatchObject({ reaction: 'like', removed: true, yours: ['verified'] });
    expect(removed.body.reactions.like).toBe(1);
    expect((await api(gw.url, 'DELETE', `/wall/${p.post_id}/react?reaction=like`, { secret: bob.secret })).body.removed).toBe(false);
    expect((await react(bob, 'love')).status).toBe(422);
    // Both names for one reaction agree, or the call is refused.
    expect((await api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { reaction: 'like', kind: '👍' }, secret: carol.secret })).status).toBe(200);
    expect((await api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { reaction: 'like', kind: 'thanks' }, secret: carol.secret })).status).toBe(422);
    expect((await react(alice, 'like')).status).toBe(422); // not on your own post
    expect((await api(gw.url, 'POST', '/wall/999999/react', { body: { reaction: 'like' }, secret: bob.secret })).status).toBe(404);
    expect((await tray(alice, 'reaction')).some((n) => n.data.reaction === 'verified' && n.data.from === 'bob')).toBe(true);
  });

  it('notifies a reaction taken back and given again once while it waits unread', async () => {
    later();
    const p = (await post(alice, { text: 'Toggle me' })).body;
    const thanks = async () => (await tray(alice, 'reaction')).filter((n) => n.data.post_id === p.post_id && n.data.from === 'carol');
    for (let i = 0; i < 4; i++) {
      await api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { reaction: 'thanks' }, secret: carol.secret });
      await api(gw.url, 'DELETE', `/wall/${p.post_id}/react?reaction=thanks`, { secret: carol.secret });
    }
    expect(await thanks()).toHaveLength(1);
    expect((await api(gw.url, 'POST', '/notifications/read', { body: { all: true }, secret: alice.secret })).status).toBe(200);
    await api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { reaction: 'thanks' }, secret: carol.secret });
    expect(await thanks()).toHaveLength(2);
    // Another kind of reaction is news of its own.
    await api(gw.url, 'POST', `/wall/${p.post_id}/react`, { body: { reaction: 'like' }, secret: carol.secret });
    expect((await tray(alice, 'reaction')).filter((n) => n.data.post_id === p.post_id && n.data.reaction === 'like')).toHaveLength(1);
  });
});

describe('reading and polling', () => {
  it('lists newest first; since_id returns the next posts without gaps; filters by handle and topic', async () => {
    later();
    const poller = await register(gw.url, 'poller');
    const top = (await api(gw.url, 'GET', '/wall?limit=1')).body;
    const since = top.newest_id;
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await post(poller, { text: `tick ${i} #Polling` })).body.post_id);
    const first = (await api(gw.url, 'GET', `/wall?since_id=${since}&limit=3`)).body;
    expect(first.posts.map((p: { post_id: number }) => p.post_id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(first.more).toBe(true);
    const second = (await api(gw.url, 'GET', `/wall?since_id=${first.newest_id}&limit=3`)).body;
    expect(second.posts.map((p: { post_id: number }) => p.post_id)).toEqual([ids[4], ids[3]]);
    expect(second.more).toBe(false);
    const none = (await api(gw.url, 'GET', `/wall?since_id=${second.newest_id}`)).body;
    expect(none).toMatchObject({ posts: [], newest_id: second.newest_id });

    const latest = (await api(gw.url, 'GET', '/wall?limit=2')).body.posts.map((p: { post_id: number }) => p.post_id);
    expect(latest).toEqual([ids[4], ids[3]]);
    const back = (await api(gw.url, 'GET', `/wall?limit=2&before_id=${ids[3]}`)).body.posts.map((p: { post_id: number }) => p.post_id);
    expect(back).toEqual([ids[2], ids[1]]);
    expect((await api(gw.url, 'GET', '/wall?handle=poller')).body.count).toBe(5);
    const byTopic = (await api(gw.url, 'GET', '/wall?topic=%23POLLING&limit=10')).body;
    expect(byTopic.topic).toBe('polling');
    expect(byTopic.posts.map((p: { post_id: number }) => p.post_id)).toEqual([...ids].reverse());
    expect((await api(gw.url, 'GET', `/wall?topic=polling&since_id=${ids[3]}`)).body.posts.map((p: { post_id: number }) => p.post_id)).toEqual([ids[4]]);
    expect((await api(gw.url, 'GET', '/wall?handle=ghost-agent')).status).toBe(404);
    expect((await api(gw.url, 'GET', '/wall?limit=0')).status).toBe(422);
    expect((await api(gw.url, 'GET', '/wall?topic=%23%23')).status).toBe(422);
  });

  it('searches post text and joins /search and /search/stats', async () => {
    later();
    await post(bob, { text: 'Zeppelin telemetry arrives hourly #airships' });
    const s = (await api(gw.url, 'GET', '/wall/search?q=zeppelin')).body;
    expect(s.results[0]).toMatchObject({ handle: 'bob', topics: ['airships'] });
    expect(s.results[0].snippet).toContain('«Zeppelin»');
    const unified = (await api(gw.url, 'GET', '/search?q=zeppelin&sources=wall')).body;
    expect(unified.wall[0]).toMatchObject({ source: 'wall', acl_status: 'public', post_id: s.results[0].post_id });
    const stats = (await api(gw.url, 'GET', '/search/stats')).body;
    expect(stats.wall_posts).toBe((await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM wall_posts'))!.n);
  });

  it('lets an author delete its own post; replies by others keep their reply_to', async () => {
    later();
    const p = (await post(carol, { text: 'to be removed #ephemeral' })).body;
    const reply = (await post(bob, { text: 'noted', reply_to: p.post_id })).body;
    expect((await api(gw.url, 'DELETE', `/wall/${p.post_id}`, { secret: bob.secret })).status).toBe(403);
    expect((await api(gw.url, 'DELETE', `/wall/${p.post_id}`, { secret: carol.secret })).body).toEqual({ deleted: true, post_id: p.post_id });
    expect((await api(gw.url, 'GET', `/wall/${p.post_id}`)).status).toBe(404);
    expect((await api(gw.url, 'GET', `/wall/${reply.post_id}`)).body).toMatchObject({ post: { reply_to: p.post_id }, context: [] });
    expect((await api(gw.url, 'GET', '/topics?window_hours=1')).body.topics.map((t: { topic: string }) => t.topic)).not.toContain('ephemeral');
    // Ids are never reused, even for the newest post, so since_id pollers and the search index stay right.
    const newest = (await post(carol, { text: 'Quokka sighting' })).body;
    await api(gw.url, 'DELETE', `/wall/${newest.post_id}`, { secret: carol.secret });
    const next = (await post(carol, { text: 'Wombat sighting' })).body;
    expect(next.post_id).toBeGreaterThan(newest.post_id);
    expect((await api(gw.url, 'GET', '/wall/search?q=quokka')).body.results).toEqual([]);
    expect((await api(gw.url, 'GET', '/wall/search?q=wombat')).body.results.map((r: { post_id: number }) => r.post_id)).toEqual([next.post_id]);
  });
});

describe('/topics', () => {
  it('ranks topics by posts inside the window, and the window moves with the clock', async () => {
    const g = await startGateway();
    try {
      const [a, b] = [await register(g.url, 'topic-a'), await register(g.url, 'topic-b')];
      const p = (who: { secret: string }, text: string) => api(g.url, 'POST', '/wall', { body: { text }, secret: who.secret });
      await p(a, 'old news #legacy #legacy-systems');
      await p(b, 'more old news #Legacy');
      g.clock.advance(3 * 24 * 3600_000);
      await p(a, '#rust is fun');
      await p(b, 'so is #Rust');
      await p(a, 'and #RUST again #wasm');
      const week = (await api(g.url, 'GET', '/topics')).body;
      expect(week.window_hours).toBe(168);
      expect(week.topics.map((t: { topic: string; posts: number }) => `${t.topic}:${t.posts}`)).toEqual(['rust:3', 'legacy:2', 'legacy-systems:1', 'wasm:1']);
      const day = (await api(g.url, 'GET', '/topics?window_hours=24&limit=1')).body;
      expect(day.topics).toEqual([{ rank: 1, topic: 'rust', posts: 3, url: `${g.url}/wall?topic=rust` }]);
      g.clock.advance(5 * 24 * 3600_000);
      expect((await api(g.url, 'GET', '/topics')).body.topics.map((t: { topic: string }) => t.topic)).toEqual(['rust', 'wasm']);
      expect((await api(g.url, 'GET', '/topics?window_hours=721')).status).toBe(422);
      const digest = (await api(g.url, 'GET', '/wall/digest?topic=rust')).body;
      expect(digest).toMatchObject({ topic: 'rust', posts: 3, engine: 'extractive' });
      expect(digest.contributors).toEqual([{ handle: 'topic-a', posts: 2 }, { handle: 'topic-b', posts: 1 }]);
      expect(digest.markdown).toContain('# #rust');
    } finally {
      await g.cleanup();
    }
  });
});
