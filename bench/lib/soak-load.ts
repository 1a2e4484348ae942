// The soak's mixed load: each client is an agent running a weighted random mix of what a real population does
// (memory writes of 0–20 KB over 5 namespaces × 500 keys, reads, searches, wall posts and reads, calculators,
// MCP sessions opened, used and mostly abandoned, A2A message/send, bad requests), one request at a time.
import { randomUUID } from 'node:crypto';
import { rng, sentence, word } from './corpus.js';
import { Acknowledged } from './soak-disk.js';

const ACCEPT = 'application/json, text/event-stream';
const json = { 'content-type': 'application/json' };

export interface SoakClient {
  secret: string;
  /** An enterprise key: calculators and A2A questions are paid calls counted against it. */
  apiKey: string;
}

export interface SoakCounts {
  requests: number;
  byClass: Record<string, number>;
  /** MCP sessions opened, and how many of them were left without a DELETE. */
  sessionsOpened: number;
  sessionsAbandoned: number;
  /** Calls on a session that answered 404 (evicted or expired): the client opened a new one. */
  sessionsLost: number;
  /** 5xx answers and network errors: a soak must have none. */
  failures: string[];
  /** What the gateway acknowledged storing, per workload (the soak's disk accounting). */
  acknowledged: Acknowledged;
}

export const newCounts = (versionsKept = 50): SoakCounts => ({ requests: 0, byClass: {}, sessionsOpened: 0, sessionsAbandoned: 0, sessionsLost: 0, failures: [], acknowledged: new Acknowledged(versionsKept) });

const utf8 = (s: string): number => Buffer.byteLength(s);

/** A value of 0–20 KB: words, so the search index gets real terms. */
function value(rand: () => number): unknown {
  const bytes = Math.floor(rand() * 20 * 1024);
  const text = sentence(rand, Math.max(1, Math.round(bytes / 8)));
  return { text: text.slice(0, bytes), n: Math.floor(rand() * 1000) };
}

async function send(counts: SoakCounts, url: string, init: RequestInit): Promise<Response | null> {
  counts.requests++;
  try {
    const r = await fetch(url, init);
    const cls = `${String(r.status)[0]}xx`;
    counts.byClass[cls] = (counts.byClass[cls] ?? 0) + 1;
    if (r.status >= 500 && counts.failures.length < 20) counts.failures.push(`${init.method ?? 'GET'} ${new URL(url).pathname} → ${r.status}`);
    return r;
  } catch (err) {
    counts.byClass.network = (counts.byClass.network ?? 0) + 1;
    if (counts.failures.length < 20) counts.failures.push(`${init.method ?? 'GET'} ${new URL(url).pathname} → ${(err as Error).message}`);
    return null;
  }
}

async function drain(r: Response | null): Promise<string> {
  return r ? r.text() : '';
}

/** One client's MCP session: opened with initialize, used for a few calls, then abandoned (or, now and then, closed). */
class McpUse {
  private headers: Record<string, string> | null = null;
  private calls = 0;
  private id = 1;

  constructor(
    private readonly base: string,
    private readonly client: SoakClient,
    private readonly counts: SoakCounts,
    private readonly rand: () => number,
    private readonly agent: number,
  ) {}

  private async open(): Promise<void> {
    const auth = { authorization: `Bearer ${this.client.secret}`, 'x-api-key': this.client.apiKey };
    const init = await send(this.counts, `${this.base}/mcp`, {
      method: 'POST',
      headers: { ...json, accept: ACCEPT, ...auth },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'soak', version: '1' } } }),
    });
    const session = init?.headers.get('mcp-session-id');
    await drain(init);
    if (!session) return;
    this.counts.sessionsOpened++;
    this.headers = { ...json, accept: ACCEPT, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18', ...auth };
    this.calls = 0;
    await drain(await send(this.counts, `${this.base}/mcp`, { method: 'POST', headers: this.headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }));
  }

  async step(): Promise<void> {
    if (!this.headers) return this.open();
    const ns = `ns${Math.floor(this.rand() * 5)}`;
    const key = `k${Math.floor(this.rand() * 500)}`;
    const call =
      this.rand() < 0.5
        ? { name: 'memory_get', arguments: { namespace: ns, key } }
        : this.rand() < 0.5
          ? { name: 'base_convert', arguments: { value: String(Math.floor(this.rand() * 1e6)), from_base: 10, to_base: 16 } }
          : { name: 'memory_put', arguments: { namespace: ns, key, value: value(this.rand) } };
    const method = this.rand() < 0.1 ? { method: 'tools/list', params: {} } : { method: 'tools/call', params: call };
    const r = await send(this.counts, `${this.base}/mcp`, { method: 'POST', headers: this.headers, body: JSON.stringify({ jsonrpc: '2.0', id: this.id++, ...method }) });
    const text = await drain(r);
    if (call.name === 'memory_put' && method.method === 'tools/call' && r?.status === 200 && text.includes('"result"') && !text.includes('"isError":true')) {
      this.counts.acknowledged.memory(`${this.agent}|${ns}|${key}`, utf8(JSON.stringify((call.arguments as { value: unknown }).value)));
    }
    if (r?.status === 404) {
      // Evicted (the session cap) or expired: as a real client, open a new one.
      this.counts.sessionsLost++;
      this.headers = null;
      return;
    }
    if (++this.calls >= 5 + Math.floor(this.rand() * 20)) {
      // Most clients just go away; a few say goodbye.
      if (this.rand() < 0.2) await drain(await send(this.counts, `${this.base}/mcp`, { method: 'DELETE', headers: this.headers }));
      else this.counts.sessionsAbandoned++;
      this.headers = null;
    }
  }
}

/** Requests that must be refused with a 4xx: malformed JSON, unknown routes, invalid input, wrong credentials, stale sessions. */
async function badRequest(base: string, c: SoakClient, counts: SoakCounts, rand: () => number): Promise<void> {
  const bearer = { authorization: `Bearer ${c.secret}` };
  const pick = Math.floor(rand() * 6);
  const r =
    pick === 0
      ? await send(counts, `${base}/memory/ns0/k1`, { method: 'PUT', headers: { ...json, ...bearer }, body: '{"value": ' })
      : pick === 1
        ? await send(counts, `${base}/no/such/route/${Math.floor(rand() * 1e6)}`, {})
        : pick === 2
          ? await send(counts, `${base}/memory/${'x'.repeat(200)}/k`, { method: 'PUT', headers: { ...json, ...bearer }, body: '{"value": 1}' })
          : pick === 3
            ? await send(counts, `${base}/agents/me`, { headers: { authorization: `Bearer ags_wrong${Math.floor(rand() * 1e9)}` } })
            : pick === 4
              ? await send(counts, `${base}/mcp`, { method: 'POST', headers: { ...json, accept: ACCEPT, 'mcp-session-id': randomUUID() }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' })
              : await send(counts, `${base}/a2a`, { method: 'POST', headers: json, body: '{"jsonrpc":"2.0","id":1,"method":"no/such"}' });
  await drain(r);
}

/** Runs one client until `until` (ms since the epoch). */
export async function runClient(base: string, c: SoakClient, seed: number, until: () => boolean, counts: SoakCounts): Promise<void> {
  const rand = rng(seed);
  const mcp = new McpUse(base, c, counts, rand, seed);
  const bearer = { authorization: `Bearer ${c.secret}` };
  const keyed = { ...json, 'x-api-key': c.apiKey };
  while (!until()) {
    const p = rand();
    const ns = `ns${Math.floor(rand() * 5)}`;
    const key = `k${Math.floor(rand() * 500)}`;
    if (p < 0.3) {
      const v = value(rand);
      const r = await send(counts, `${base}/memory/${ns}/${key}`, { method: 'PUT', headers: { ...json, ...bearer }, body: JSON.stringify({ value: v }) });
      await drain(r);
      if (r && r.status < 300) counts.acknowledged.memory(`${seed}|${ns}|${key}`, utf8(JSON.stringify(v)));
    } else if (p < 0.5) {
      await drain(await send(counts, `${base}/memory/${ns}/${key}`, { headers: bearer }));
    } else if (p < 0.58) {
      await drain(await send(counts, `${base}/memory/search?q=${word(rand)}&limit=20`, { headers: bearer }));
    } else if (p < 0.62) {
      const text = `${sentence(rand, 10)} #${word(rand)}`;
      const r = await send(counts, `${base}/wall`, { method: 'POST', headers: { ...json, ...bearer }, body: JSON.stringify({ text }) });
      await drain(r);
      if (r && r.status < 300) counts.acknowledged.add('wall', utf8(text));
    } else if (p < 0.65) {
      await drain(await send(counts, `${base}/wall?limit=50${rand() < 0.5 ? `&topic=${word(rand)}` : ''}`, {}));
    } else if (p < 0.75) {
      await drain(await send(counts, `${base}/tools/base_convert`, { method: 'POST', headers: keyed, body: JSON.stringify({ value: String(Math.floor(rand() * 1e6)), from_base: 10, to_base: 2 }) }));
    } else if (p < 0.87) {
      await mcp.step();
    } else if (p < 0.94) {
      const body = { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: `convert ${Math.floor(rand() * 1e5)} to base 2` }] } } };
      const r = await send(counts, `${base}/a2a`, { method: 'POST', headers: keyed, body: JSON.stringify(body) });
      const answer = await drain(r);
      // The task the gateway keeps is the one it answered with: the question, the reply and the artifacts.
      if (r?.status === 200 && answer.includes('"result"')) counts.acknowledged.add('a2a', utf8(answer));
    } else {
      await badRequest(base, c, counts, rand);
    }
  }
}
