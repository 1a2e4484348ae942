import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Egress, createEgress, signWebhook, verifyWebhookSignature } from '../../src/egress/index.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
}

/** A loopback receiver that answers each request with the next status from `plan` (the last one repeats). */
async function receiver(): Promise<{ url: string; got: Received[]; plan: number[]; headers: Record<string, string>; close(): Promise<void> }> {
  const got: Received[] = [];
  const state = { plan: [200] as number[], headers: {} as Record<string, string> };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, raw: Buffer.concat(chunks).toString() });
      const status = state.plan.length > 1 ? (state.plan.shift() as number) : state.plan[0];
      res.writeHead(status, state.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    get plan() {
      return state.plan;
    },
    set plan(p: number[]) {
      state.plan = [...p];
    },
    get headers() {
      return state.headers;
    },
    set headers(h: Record<string, string>) {
      state.headers = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"event":"job.done","id":42}';

  it('verifies a signature over "<timestamp>.<body>"', () => {
    const ts = 1_700_000_000;
    const header = signWebhook(secret, ts, body);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, ts, body, header, 300, ts + 10)).toBe(true);
    expect(verifyWebhookSignature(secret, String(ts), Buffer.from(body), header, 300, ts)).toBe(true);
  });

  it('rejects a wrong secret, a changed body or timestamp, a stale timestamp and junk', () => {
    const ts = 1_700_000_000;
    const header = signWebhook(secret, ts, body);
    expect(verifyWebhookSignature('other', ts, body, header, 300, ts)).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body.replace('42', '43'), header, 300, ts)).toBe(false);
    expect(verifyWebhookSignature(secret, ts + 1, body, header, 300, ts)).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body, header, 300, ts + 301)).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body, header, 300, ts - 301)).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body, undefined, 300, ts)).toBe(false);
    expect(verifyWebhookSignature(secret, ts, body, 'sha256=00', 300, ts)).toBe(false);
    expect(verifyWebhookSignature(secret, 'abc', body, header, 300, ts)).toBe(false);
  });
});

describe('sendWebhook', () => {
  let hook: Awaited<ReturnType<typeof receiver>>;
  let egress: Egress;
  const secret = 'whsec_test';

  beforeAll(async () => {
    hook = await receiver();
    egress = createEgress({ allow: ['127.0.0.1/32'] });
  });
  afterEach(() => {
    hook.got.length = 0;
    hook.headers = {};
  });
  afterAll(async () => {
    await egress.close();
    await hook.close();
  });

  /** Deterministic clock and jitter; sleeps are recorded, not waited. */
  const fakes = () => {
    const sleeps: number[] = [];
    let t = Date.UTC(2026, 0, 1);
    return {
      sleeps,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        t += ms;
      },
      now: () => t,
      random: () => 0.5,
    };
  };

  it('posts signed JSON that the receiver can verify, retrying 500 until it succeeds', async () => {
    hook.plan = [500, 500, 200];
    const f = fakes();
    const result = await egress.sendWebhook({ url: hook.url, body: { event: 'job.done', id: 7 }, secret, baseDelayMs: 100, ...f });

    expect(result.delivered).toBe(true);
    expect(result.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(result.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(result.attempts[0].at).toBe('2026-01-01T00:00:00.000Z');
    expect(f.sleeps).toEqual([50, 100]); // full jitter: random(0.5) * 100 * 2^(n-1)

    expect(hook.got).toHaveLength(3);
    const ids = new Set(hook.got.map((g) => g.headers['x-gateway-delivery']));
    expect(ids).toEqual(new Set([result.delivery_id])); // one delivery id across attempts
    for (const g of hook.got) {
      expect(g.headers['content-type']).toBe('application/json');
      expect(JSON.parse(g.raw)).toEqual({ event: 'job.done', id: 7 });
      const ts = g.headers['x-gateway-timestamp'] as string;
      expect(ts).toMatch(/^\d+$/);
      const sig = g.headers['x-gateway-signature'] as string;
      expect(verifyWebhookSignature(secret, ts, g.raw, sig, 300, Number(ts))).toBe(true);
      expect(verifyWebhookSignature('wrong', ts, g.raw, sig, 300, Number(ts))).toBe(false);
    }
  });

  it('does not retry other 4xx', async () => {
    hook.plan = [400];
    const f = fakes();
    const result = await egress.sendWebhook({ url: hook.url, body: {}, secret, ...f });
    expect(result.delivered).toBe(false);
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0].status).toBe(400);
    expect(f.sleeps).toEqual([]);
    expect(hook.got).toHaveLength(1);
  });

  it('retries 429, honouring Retry-After within maxDelayMs, and gives up after `attempts`', async () => {
    hook.plan = [429];
    hook.headers = { 'retry-after': '2' };
    const f = fakes();
    const result = await egress.sendWebhook({ url: hook.url, body: [1, 2], secret, attempts: 3, baseDelayMs: 100, maxDelayMs: 10_000, ...f });
    expect(result.delivered).toBe(false);
    expect(result.attempts.map((a) => a.status)).toEqual([429, 429, 429]);
    expect(f.sleeps).toEqual([2000, 2000]);
  });

  it('caps the backoff at maxDelayMs', async () => {
    hook.plan = [503];
    const f = fakes();
    const result = await egress.sendWebhook({ url: hook.url, body: null, secret, attempts: 5, baseDelayMs: 1000, maxDelayMs: 3000, ...f, random: () => 0.999 });
    expect(result.attempts).toHaveLength(5);
    expect(f.sleeps).toEqual([999, 1998, 2997, 2997]);
  });

  it('retries network errors and records them', async () => {
    const gone = await receiver();
    const url = gone.url;
    await gone.close();
    const f = fakes();
    const result = await egress.sendWebhook({ url, body: {}, secret, attempts: 2, ...f });
    expect(result.delivered).toBe(false);
    expect(result.attempts).toHaveLength(2);
    expect(result.attempts[0].error).toMatch(/^connect: /);
    expect(result.attempts[0].status).toBeUndefined();
    expect(f.sleeps).toHaveLength(1);
  });

  it('goes through the egress policy: a blocked address fails at once, without retries', async () => {
    const strict = createEgress();
    try {
      const f = fakes();
      const result = await strict.sendWebhook({ url: hook.url, body: {}, secret, ...f });
      expect(result.delivered).toBe(false);
      expect(result.attempts).toHaveLength(1);
      expect(result.attempts[0].error).toMatch(/^blocked_address: /);
      expect(f.sleeps).toEqual([]);
      expect(hook.got).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('does not follow redirects', async () => {
    hook.plan = [307];
    hook.headers = { location: 'http://127.0.0.1:1/elsewhere' };
    const result = await egress.sendWebhook({ url: hook.url, body: {}, secret, ...fakes() });
    expect(result.delivered).toBe(false);
    expect(result.attempts).toEqual([expect.objectContaining({ status: 307 })]);
  });
});
