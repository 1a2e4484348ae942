// Limits per email and per client address under 50 concurrent requests (issue 42): free keys per email, keys per
// client per day (from none and from one used), commercial signups per client per day, and the free chat tier's
// completions per minute. Each lets exactly its limit through, on one gateway and across three instances on one
// PostgreSQL, and answers the rest as it answers one request past the limit. Each test is its own client address.
import { expect, it } from 'vitest';
import { api } from '../helpers/gateway.js';
import { BURST, burst, from, onEachCluster, statusCounts } from './limits-cluster.js';

const KEYS_PER_DAY = 10;
const SIGNUPS_PER_DAY = 5;
const CHAT_PER_MINUTE = 20;

const env = {
  GATEWAY_KEYS_PER_CLIENT_PER_DAY: String(KEYS_PER_DAY),
  GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: String(SIGNUPS_PER_DAY),
  GATEWAY_CHAT_RATE_PER_MINUTE: String(CHAT_PER_MINUTE),
};

onEachCluster('limits per client', env, (cluster) => {
  const issue = (email: string, ip: string) => api(cluster().next(), 'POST', '/keys/issue', { body: { email }, headers: from(ip) });

  it('free keys per email: 3 of 50 concurrent issues pass, the rest 409', async () => {
    const calls = await burst(BURST, (i) => issue('same@example.com', `10.1.0.${i}`));
    expect(statusCounts(calls)).toEqual({ 201: 3, 409: BURST - 3 });
    expect(calls.find((c) => c.status === 409)!.body.error).toMatchObject({ code: 'conflict', message: 'This email already holds 3 free keys; use one of them.' });
  });

  it(`keys per client per day: ${KEYS_PER_DAY} of 50 concurrent issues pass, the rest 429 with Retry-After`, async () => {
    const calls = await burst(BURST, (i) => issue(`client-${i}@example.com`, '10.2.0.1'));
    expect(statusCounts(calls)).toEqual({ 201: KEYS_PER_DAY, 429: BURST - KEYS_PER_DAY });
    const refused = calls.find((c) => c.status === 429)!;
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: `At most ${KEYS_PER_DAY} keys per client per day; retry tomorrow.` });
    expect(refused.headers.get('retry-after')).toBe('86400');
  });

  it('keys per client per day with one used already: the other 9 pass', async () => {
    expect((await issue('first@example.com', '10.3.0.1')).status).toBe(201);
    const calls = await burst(BURST, (i) => issue(`later-${i}@example.com`, '10.3.0.1'));
    expect(statusCounts(calls)).toEqual({ 201: KEYS_PER_DAY - 1, 429: BURST - KEYS_PER_DAY + 1 });
  });

  it(`signups per client per day: ${SIGNUPS_PER_DAY} of 50 concurrent signups pass, the rest 429`, async () => {
    const calls = await burst(BURST, (i) => api(cluster().nextApi(), 'POST', '/signup', { body: { email: `acct-${i}@example.com`, name: 'Co' }, headers: from('10.4.0.1') }));
    expect(statusCounts(calls)).toEqual({ 201: SIGNUPS_PER_DAY, 429: BURST - SIGNUPS_PER_DAY });
    const refused = calls.find((c) => c.status === 429)!;
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: `At most ${SIGNUPS_PER_DAY} signups per client address a day; retry tomorrow.` });
    expect(refused.headers.get('retry-after')).toBe('86400');
  });

  it('one account per email: 1 of 50 concurrent signups with one email passes, the rest 409', async () => {
    const calls = await burst(BURST, (i) => api(cluster().nextApi(), 'POST', '/signup', { body: { email: 'taken@example.com', name: 'Co' }, headers: from(`10.5.0.${i}`) }));
    expect(statusCounts(calls)).toEqual({ 201: 1, 409: BURST - 1 });
    expect(calls.find((c) => c.status === 409)!.body.error).toMatchObject({ code: 'conflict', reason: 'email_taken' });
  });

  it(`chat completions per client per minute: ${CHAT_PER_MINUTE} of 50 concurrent pass, the rest 429 in OpenAI's format`, async () => {
    const body = { model: 'gateway-local', messages: [{ role: 'user', content: 'What is this gateway?' }] };
    const calls = await burst(BURST, () => api(cluster().next(), 'POST', '/v1/chat/completions', { body, headers: from('10.6.0.1') }));
    expect(statusCounts(calls)).toEqual({ 200: CHAT_PER_MINUTE, 429: BURST - CHAT_PER_MINUTE });
    const refused = calls.find((c) => c.status === 429)!;
    expect(refused.body.error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(refused.body.error.message).toMatch(`allows ${CHAT_PER_MINUTE} completions per minute per client`);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
