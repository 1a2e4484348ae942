// Credential caches (GATEWAY_CREDENTIAL_CACHE_ENTRIES) and in-process rate windows (GATEWAY_RATE_WINDOW_KEYS) hold
// at most their bound. At the bound a credential is looked up again (never resolved to someone else); a rate window
// forgets the clients seen least recently, and keeps limiting the ones it holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentResolver } from '../../src/auth/agent-resolver.js';
import { ManualClock } from '../../src/clock.js';
import { RateWindow } from '../../src/rate-window.js';
import { ChatLimiter } from '../../tools/chat/rate.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_CREDENTIAL_CACHE_ENTRIES: '1' } });
});
afterAll(async () => gw.cleanup());

describe('credential caches at their bound', () => {
  it('resolves every agent to itself when more agents call than the cache holds; a wrong secret is refused', async () => {
    const agents = [await register(gw.url, 'cb-cred-a'), await register(gw.url, 'cb-cred-b'), await register(gw.url, 'cb-cred-c')];
    for (let round = 0; round < 3; round++) {
      for (const a of agents) expect((await api(gw.url, 'GET', '/agents/me', { secret: a.secret })).body.handle).toBe(a.handle);
    }
    expect((await api(gw.url, 'GET', '/agents/me', { secret: `${agents[0].secret}x` })).status).toBe(403);
  });

  it('looks up again what the cache dropped, and everything with a bound of 0 (unit)', async () => {
    const seen: string[] = [];
    const lookup = async (hash: string) => (seen.push(hash), { id: `id-${hash.slice(0, 4)}`, handle: 'h' });
    const one = new AgentResolver(lookup, () => 0, 1);
    await one.resolve('secret-one-0123');
    await one.resolve('secret-one-0123');
    expect(seen).toHaveLength(1); // cached
    await one.resolve('secret-two-0123');
    await one.resolve('secret-one-0123');
    expect(seen).toHaveLength(3); // the second secret pushed the first out
    const none = new AgentResolver(lookup, () => 0, 0);
    await none.resolve('secret-one-0123');
    await none.resolve('secret-one-0123');
    expect(seen).toHaveLength(5);
  });
});

describe('rate windows at GATEWAY_RATE_WINDOW_KEYS', () => {
  it('tracks at most the bound, forgetting the clients seen least recently first', () => {
    const clock = new ManualClock();
    const w = new RateWindow(2, 60_000, clock, 10);
    for (let i = 0; i < 100; i++) w.take(`client-${i}`);
    expect(w.size).toBeLessThanOrEqual(10);
    // A client it still holds stays limited...
    expect(w.take('client-99')).toBe(0);
    expect(w.take('client-99')).toBeGreaterThan(0);
    // ...one it forgot starts over.
    expect(w.take('client-0')).toBe(0);
  });

  it('keeps a client that keeps coming back over ones seen once', () => {
    const w = new RateWindow(3, 60_000, new ManualClock(), 10);
    for (let i = 0; i < 3; i++) expect(w.take('regular')).toBe(0);
    for (let i = 0; i < 30; i++) {
      w.take(`passer-${i}`);
      if (i % 5 === 0) expect(w.take('regular')).toBeGreaterThan(0); // still counted: over its limit of 3
    }
    expect(w.size).toBeLessThanOrEqual(10);
  });

  it('drops clients whose window has passed before any that are still counted', () => {
    const clock = new ManualClock();
    const w = new RateWindow(1, 1000, clock, 10);
    for (let i = 0; i < 5; i++) w.take(`gone-${i}`);
    clock.advance(1100); // their windows have passed
    for (let i = 0; i < 6; i++) w.take(`new-${i}`); // the 11th key: the five passed ones make room
    expect(w.size).toBe(6);
    for (let i = 0; i < 6; i++) expect(w.take(`new-${i}`)).toBeGreaterThan(0);
  });

  it('bounds the chat limiter the same way', () => {
    const clock = new ManualClock();
    const chat = new ChatLimiter(1, clock, 10);
    for (let i = 0; i < 100; i++) chat.take(`ip:${i}`);
    expect(chat.size).toBeLessThanOrEqual(10);
    expect(chat.take('ip:99')).toBeGreaterThan(0);
    expect(chat.take('ip:0')).toBe(0);
  });
});
