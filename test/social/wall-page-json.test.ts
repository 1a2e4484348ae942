// Wall pages keep their posts as the JSON text SQLite built: REST writes it unparsed, every other reader
// (MCP, an inner registry call, JSON.stringify) sees the same posts as plain values.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyBody, withJsonText } from '../../src/registry/json-text.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

describe('a field held as JSON text', () => {
  const text = '[{"a":1,"s":"x\\"y"},{"b":[true,null]}]';

  it('is written unparsed, first, with the other fields serialized as usual', () => {
    const body = withJsonText('posts', text, { count: 2, more: false, topic: 'q"t', skipped: undefined });
    expect(stringifyBody(body)).toBe(`{"posts":${text},"count":2,"more":false,"topic":"q\\"t"}`);
    expect(JSON.parse(String(stringifyBody(body)))).toEqual(JSON.parse(JSON.stringify(body)));
    expect(stringifyBody(withJsonText('posts', '[]', {}))).toBe('{"posts":[]}');
  });

  it('reads as the parsed value, parsed once, and can be replaced', () => {
    const body = withJsonText('posts', text, { count: 2 });
    expect(body.posts).toEqual([{ a: 1, s: 'x"y' }, { b: [true, null] }]);
    expect(body.posts).toBe(body.posts);
    expect({ ...body }).toEqual({ posts: [{ a: 1, s: 'x"y' }, { b: [true, null] }], count: 2 });
    body.posts = ['replaced'];
    expect(stringifyBody(body)).toBe('{"posts":["replaced"],"count":2}');
  });

  it('held as UTF-8 bytes, is written as those bytes and reads as the same value', () => {
    const bytes = Buffer.from('[{"t":"café ☕ \\"q\\""}]');
    const body = withJsonText('posts', bytes, { count: 1 });
    const out = stringifyBody(body);
    expect(out[1]).toBe(bytes);
    expect(Buffer.concat((out as [string, Uint8Array, string]).map((p) => Buffer.from(p))).toString()).toBe('{"posts":[{"t":"café ☕ \\"q\\""}],"count":1}');
    expect(body.posts).toEqual([{ t: 'café ☕ "q"' }]);
    expect(JSON.parse(JSON.stringify(body))).toEqual({ posts: [{ t: 'café ☕ "q"' }], count: 1 });
    // A view into a larger buffer (as a thread hands it over) is read from its own bytes only.
    const whole = Buffer.from('xx[1,2]yy');
    const inside = new Uint8Array(whole.buffer, whole.byteOffset + 2, 5);
    expect(Buffer.concat((stringifyBody(withJsonText('n', inside, {})) as [string, Uint8Array, string]).map((p) => Buffer.from(p))).toString()).toBe('{"n":[1,2]}');
    expect(withJsonText('n', inside, {}).n).toEqual([1, 2]);
  });

  it('leaves every other body to JSON.stringify', () => {
    for (const v of [{ a: 1 }, [1, 2], 'text', null, 3]) expect(stringifyBody(v)).toBe(JSON.stringify(v));
  });
});

describe('wall pages over REST and MCP', () => {
  let gw: TestGateway;
  let me: { handle: string; secret: string };
  beforeAll(async () => {
    gw = await startGateway();
    me = await register(gw.url, 'pager');
    for (const text of ['one #paging', 'two #paging', 'three', 'four #paging']) {
      expect((await api(gw.url, 'POST', '/wall', { body: { text }, secret: me.secret })).status).toBe(201);
      gw.clock.advance(61_000);
    }
  });
  afterAll(async () => gw.cleanup());

  it('show the same posts, page fields and cursors', async () => {
    const rest = (await api(gw.url, 'GET', '/wall?topic=paging&limit=2')).body;
    expect(rest.posts.map((p: { text: string }) => p.text)).toEqual(['four #paging', 'two #paging']);
    expect(rest).toMatchObject({ count: 2, more: true, topic: 'paging', newest_id: rest.posts[0].post_id, oldest_id: rest.posts[1].post_id });
    const older = (await api(gw.url, 'GET', `/wall?topic=paging&limit=2&before_id=${rest.oldest_id}`)).body;
    expect(older).toMatchObject({ count: 1, more: false });
    expect(older.posts.map((p: { text: string }) => p.text)).toEqual(['one #paging']);
    // Polling: the posts right after since_id, shown newest first.
    const polled = (await api(gw.url, 'GET', `/wall?limit=2&since_id=${older.posts[0].post_id}`)).body;
    expect(polled.posts.map((p: { text: string }) => p.text)).toEqual(['three', 'two #paging']);
    expect(polled).toMatchObject({ count: 2, more: true, newest_id: polled.posts[0].post_id });

    const client = new Client({ name: 'pages', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp?toolsets=wall,social`), { requestInit: { headers: { authorization: `Bearer ${me.secret}` } } }));
    try {
      const viaMcp = await client.callTool({ name: 'wall_list', arguments: { topic: 'paging', limit: 2 } });
      expect(viaMcp.structuredContent).toEqual(rest);
      expect(JSON.parse((viaMcp.content as { text: string }[])[0].text)).toEqual(rest);
      // An inner call (as a template step makes) gets plain values too.
      const inner = await gw.gateway.registry.call('wall_list', { topic: 'paging', limit: 2 }, { ip: '127.0.0.1', transport: 'internal' });
      expect(Array.isArray((inner.result as { posts: unknown }).posts)).toBe(true);
      expect(JSON.parse(JSON.stringify(inner.result))).toEqual(rest);
    } finally {
      await client.close();
    }
  });

  it('an empty page is an empty list with since_id kept as newest_id', async () => {
    const r = (await api(gw.url, 'GET', '/wall?since_id=999999')).body;
    expect(r).toEqual({ posts: [], count: 0, newest_id: 999999, oldest_id: null, more: false });
  });
});
