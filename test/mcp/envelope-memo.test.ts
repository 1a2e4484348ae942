// The envelope memo gives exactly the SDK classifier's outcome: once an envelope is known, for bodies of the plain
// tools/call shape, and by asking the SDK for everything else (other shapes, other envelopes, other headers).
import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { EnvelopeMemo, ENVELOPES_KEPT } from '../../src/mcp/envelope-memo.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'memo-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };

const call = (over: Record<string, unknown> = {}, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hi' }, _meta: META, ...params },
  ...over,
});
const request = (headers: Record<string, string> = HEADERS) => ({ headers }) as unknown as IncomingMessage;

/** The SDK's own outcome, and a counter of how often it was asked. */
function sdk(req: IncomingMessage, body: unknown) {
  const h = (n: string) => (typeof req.headers[n] === 'string' ? (req.headers[n] as string) : undefined);
  return classifyInboundRequest({ httpMethod: 'POST', body, protocolVersionHeader: h('mcp-protocol-version'), mcpMethodHeader: h('mcp-method'), mcpNameHeader: h('mcp-name') });
}

/** Comparable form: rejections carry error objects; their kind, reason and message say what was decided. */
const plain = (o: ReturnType<typeof sdk>) => JSON.parse(JSON.stringify(o, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message } : v)));

describe('the envelope memo', () => {
  it('asks the SDK once per envelope and header pair, then answers the same for the plain shape', () => {
    const memo = new EnvelopeMemo();
    let asked = 0;
    const ask = (req: IncomingMessage, body: unknown) => memo.classify(req, body, () => (asked++, sdk(req, body)));
    const first = ask(request(), call());
    expect(first.kind).toBe('modern');
    expect(asked).toBe(1);
    for (const id of [2, 'abc', 0, -7]) {
      const body = call({ id }, { arguments: { text: `n${id}` } });
      expect(plain(ask(request(), body))).toEqual(plain(sdk(request(), body)));
      expect((ask(request(), body) as { message: unknown }).message).toBe(body);
    }
    expect(asked).toBe(1);
    // Another name in Mcp-Name is no input to the classification: same outcome, still remembered.
    const other = { ...HEADERS, 'mcp-name': 'base64' };
    expect(plain(ask(request(other), call({}, { name: 'base64' })))).toEqual(plain(sdk(request(other), call({}, { name: 'base64' }))));
    expect(asked).toBe(1);
  });

  it('asks the SDK for every other body, envelope or header, and remembers no rejection', () => {
    const memo = new EnvelopeMemo();
    memo.classify(request(), call(), () => sdk(request(), call()));
    const cases: [string, unknown, Record<string, string>][] = [
      ['a fractional id', call({ id: 1.5 }), HEADERS],
      ['a null id', call({ id: null }), HEADERS],
      ['a boolean id', call({ id: true }), HEADERS],
      ['an extra body key', call({ result: {} }), HEADERS],
      ['a stray top-level key', call({ extra: 1 }), HEADERS],
      ['another jsonrpc version', call({ jsonrpc: '1.0' }), HEADERS],
      ['another method', call({ method: 'tools/list' }), HEADERS],
      ['an extra params key', call({}, { task: { ttl: 1 } }), HEADERS],
      ['array arguments', call({}, { arguments: [1] }), HEADERS],
      ['a progress token', call({}, { _meta: { ...META, progressToken: 'p' } }), HEADERS],
      ['a bad client info', call({}, { _meta: { ...META, 'io.modelcontextprotocol/clientInfo': 'nope' } }), HEADERS],
      ['another revision in the envelope', call({}, { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }), HEADERS],
      ['no envelope', call({}, { _meta: {} }), HEADERS],
      ['a mismatched Mcp-Method', call(), { ...HEADERS, 'mcp-method': 'tools/list' }],
      ['a mismatched protocol header', call(), { ...HEADERS, 'mcp-protocol-version': '2025-06-18' }],
      ['no Mcp-Method', call(), { 'mcp-protocol-version': '2026-07-28' }],
      ['a batch', [call()], HEADERS],
    ];
    for (const [what, body, headers] of cases) {
      let asked = 0;
      const got = memo.classify(request(headers), body, () => (asked++, sdk(request(headers), body)));
      expect(plain(got), what).toEqual(plain(sdk(request(headers), body)));
      expect(asked, what).toBe(1);
    }
    // The rejections were not remembered: the known envelope is still the only one.
    expect(memo.size).toBe(1);
  });

  it('keeps at most its bound of envelopes', () => {
    const memo = new EnvelopeMemo();
    for (let i = 0; i < ENVELOPES_KEPT + 10; i++) {
      const body = call({}, { _meta: { ...META, 'io.modelcontextprotocol/clientInfo': { name: `client-${i}`, version: '1' } } });
      memo.classify(request(), body, () => sdk(request(), body));
      expect(memo.size).toBeLessThanOrEqual(ENVELOPES_KEPT);
    }
  });
});
