// What the commercial group's bench scenarios share: a JSON call, an account opened on the built gateway's
// commercial listener and credited through the operator (main listener), a call timed sequentially after a
// warm-up, and the percentile of the samples.
import { performance } from 'node:perf_hooks';
import { BENCH_OPERATOR_TOKEN } from './processes.js';

/** The p-th percentile (nearest rank, from below) of the samples. */
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** One HTTP call with a JSON body (if any); the status and the body, parsed when it is JSON. */
export async function requestJson(method: string, base: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const r = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await r.text();
  try {
    return { status: r.status, body: JSON.parse(text) };
  } catch {
    return { status: r.status, body: text };
  }
}

/**
 * Opens an account at the commercial listener `apiUrl` (POST /signup) and credits it `credit` micro-dollars
 * through the operator on the gateway's main listener (started with BENCH_OPERATOR_TOKEN); its key and id.
 */
export async function commercialAccount(gw: { url: string }, apiUrl: string, email: string, credit: number, name = 'Bench'): Promise<{ key: string; id: string }> {
  const s = await requestJson('POST', apiUrl, '/signup', { email, name });
  if (s.status !== 201) throw new Error(`signup answered ${s.status}: ${JSON.stringify(s.body)}`);
  const c = await requestJson('POST', gw.url, '/operator/credits', { email, amount: credit, reason: 'bench' }, { 'x-operator-token': BENCH_OPERATOR_TOKEN });
  if (c.status !== 201) throw new Error(`operator credit answered ${c.status}: ${JSON.stringify(c.body)}`);
  return { key: s.body.key as string, id: s.body.account_id as string };
}

/**
 * Runs `call` `warmup` times, then `runs` times one after the other, timing each; the samples in milliseconds.
 * A call that returns a promise is awaited (inside its timing); a synchronous one is not.
 */
export async function timeSequential(call: () => unknown, o: { warmup: number; runs: number }): Promise<number[]> {
  for (let i = 0; i < o.warmup; i++) {
    const r = call();
    if (isThenable(r)) await r;
  }
  const samples: number[] = [];
  for (let i = 0; i < o.runs; i++) {
    const t0 = performance.now();
    const r = call();
    if (isThenable(r)) await r;
    samples.push(performance.now() - t0);
  }
  return samples;
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof (v as { then?: unknown } | null)?.then === 'function';
