// What the commercial group's tests (test/commerce) share: the revenue key header, an account opened at
// {api_url} (POST /signup) and credited by the operator on the main listener (POST /operator/credits), and an
// order polled with GET /orders/{id} until it reaches a status. Each test file keeps its own operator token,
// account name and fixtures, and passes them in.
import { expect } from 'vitest';
import { api, type TestGateway } from './gateway.js';
import { eventually } from './eventually.js';

/** The header that carries a revenue key. */
export const revenueKey = (k: string) => ({ 'x-revenue-key': k });

/** POST /signup on the commercial listener, expected to answer 201; the new account's key. */
export async function signUp(gw: Pick<TestGateway, 'apiUrl'>, email: string, name: string): Promise<string> {
  const r = await api(gw.apiUrl, 'POST', '/signup', { body: { email, name } });
  expect(r.status).toBe(201);
  return r.body.key as string;
}

/** The operator credits the account of `email` with `amount` micro-dollars, expected to answer 201. */
export async function creditAccount(gw: Pick<TestGateway, 'url'>, email: string, amount: number, opts: { operatorToken: string; reason?: string }): Promise<void> {
  const r = await api(gw.url, 'POST', '/operator/credits', { body: { email, amount, reason: opts.reason ?? 'test' }, headers: { 'x-operator-token': opts.operatorToken } });
  expect(r.status).toBe(201);
}

/** signUp, then creditAccount unless `credit` is 0 (or not given); the account's key. */
export async function openAccount(
  gw: Pick<TestGateway, 'url' | 'apiUrl'>,
  email: string,
  opts: { operatorToken: string; name: string; credit?: number; reason?: string },
): Promise<string> {
  const k = await signUp(gw, email, opts.name);
  if (opts.credit) await creditAccount(gw, email, opts.credit, opts);
  return k;
}

/**
 * Polls GET /orders/{id} until the order is `status` (10 s by default); the order. With `advanceMs`, the
 * gateway's clock moves on that much before each poll, so retries come due.
 */
export async function orderSettles(
  gw: Pick<TestGateway, 'apiUrl' | 'clock'>,
  k: string,
  id: string,
  status: string,
  opts: { timeoutMs?: number; advanceMs?: number } = {},
): Promise<any> {
  return eventually(async () => {
    if (opts.advanceMs) gw.clock.advance(opts.advanceMs);
    const r = await api(gw.apiUrl, 'GET', `/orders/${id}`, { headers: revenueKey(k) });
    if (r.body.status !== status) throw new Error(`order ${id} is ${r.body.status} (${r.body.error ?? ''}), not ${status}`);
    return r.body;
  }, opts.timeoutMs ?? 10_000);
}
