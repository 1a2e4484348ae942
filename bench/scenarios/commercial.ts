// Issue 23 targets, on the commercial group's own listener ({api_url}, GATEWAY_API_PORT) of the built gateway:
// 1. order placement (POST /copy/orders, the price held off a prepaid balance) p99 ≤ 20 ms at 20 connections;
// 2. 1,000 orders delivered with no lost or double capture (checked in the database file, read-only, and through
//    GET /usage);
// 3. GET /usage ≥ 0.8× the REST profile read (GET /agents/{handle} on the main listener), same load.
// The model is an OpenAI-compatible server on loopback in its own process (bench/servers/openai-chat.mjs) that
// answers the ad format at once; it can be paused so placement is measured alone, without the orders' work.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { load, table, type LoadResult } from '../lib/cannon.js';
import { commercialAccount, pct } from '../lib/commercial.js';
import { BENCH_OPERATOR_TOKEN, freePort, startGateway, startScript, type Running } from '../lib/processes.js';
import { Database } from '../../src/store/sqlite-driver.js';

const CONNECTIONS = 20;
const ORDERS = 1000;
const AD = JSON.stringify({ type: 'ad', brief: 'A same-day courier in town: parcels across the city before dinner.', platform: 'Facebook' });

async function call(base: string, method: string, p: string, o: { body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
  const r = await fetch(`${base}${p}`, {
    method,
    headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    body: typeof o.body === 'string' ? o.body : o.body !== undefined ? JSON.stringify(o.body) : undefined,
  });
  const text = await r.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: r.status, body };
}

interface Commercial {
  gw: Running & { dataDir: string };
  api: string;
}

/** The built gateway with its commercial listener on a free port, the bench model behind it. */
async function startCommercial(llm: string): Promise<Commercial> {
  const apiPort = await freePort();
  const gw = await startGateway({
    GATEWAY_API_PORT: String(apiPort),
    GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN,
    GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: '1000',
    LLM_BASE_URL: `${llm}/v1`,
    LLM_MODEL: 'bench-model',
  });
  const api = `http://127.0.0.1:${apiPort}`;
  // The main listener answers /readyz before the second one is bound.
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${api}/readyz`)).status === 200) break;
    } catch {
      if (i > 2000) throw new Error(`the commercial listener at ${api} never became ready`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return { gw, api };
}

/** Opens an account and credits it through the operator (main listener); its key and id. */
const account = (c: Commercial, email: string, amount: number) => commercialAccount(c.gw, c.api, email, amount, 'Bench Co');

async function placeOne(c: Commercial, key: string): Promise<{ id: string; price: number; ms: number }> {
  const t0 = performance.now();
  const r = await call(c.api, 'POST', '/copy/orders', { body: AD, headers: { 'x-revenue-key': key } });
  const ms = performance.now() - t0;
  if (r.status !== 202 || r.body?.payment?.state !== 'held') throw new Error(`order placement answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  return { id: r.body.order_id as string, price: r.body.price.micro_usd as number, ms };
}

async function waitDelivered(c: Commercial, key: string, id: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const r = await call(c.api, 'GET', `/orders/${id}`, { headers: { 'x-revenue-key': key } });
    if (r.body?.status === 'delivered') return;
    if (r.body?.status === 'failed') throw new Error(`order ${id} failed: ${r.body.error}`);
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`order ${id} was not delivered within 10 s`);
}

/** Requests autocannon left in flight when it stopped finish before the database is counted. */
const settle = () => new Promise((r) => setTimeout(r, 500));

const control = async (llm: string, what: 'pause' | 'resume' | 'stats') => (await fetch(`${llm}/__${what}`, { method: what === 'stats' ? 'GET' : 'POST' })).json() as Promise<Record<string, unknown>>;

/** Target 1: placement under load, alone (the model paused, so no order is made meanwhile) and with the orders made and delivered as they come. */
async function placement(llm: string): Promise<string[]> {
  const c = await startCommercial(llm);
  try {
    const acct = await account(c, 'placer@bench.example', 1_000_000_000_000); // $1M: 200,000 ads at $5
    const first = await placeOne(c, acct.key);
    await waitDelivered(c, acct.key, first.id);
    const o = { url: `${c.api}/copy/orders`, method: 'POST' as const, headers: { 'content-type': 'application/json', 'x-revenue-key': acct.key }, body: AD, connections: CONNECTIONS };
    const db = new Database(path.join(c.gw.dataDir, 'gateway.db'), { readonly: true, fileMustExist: true });
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    try {
      await control(llm, 'pause');
      // One connection first: the cost of one placement without queueing behind others.
      const single = await load('POST /copy/orders, 1 connection, placement alone (model paused)', { ...o, connections: 1 });
      const alone = await load('POST /copy/orders, placement alone (model paused: no order made meanwhile)', o);
      await settle();
      const placedAlone = count('SELECT COUNT(*) AS n FROM orders');
      const backlog = count("SELECT COUNT(*) AS n FROM orders WHERE status IN ('placed', 'working')");
      await control(llm, 'resume');
      const deliveredBefore = count("SELECT COUNT(*) AS n FROM orders WHERE status = 'delivered'");
      const t0 = performance.now();
      const busy = await load('POST /copy/orders, with the orders made and delivered meanwhile', o);
      const seconds = (performance.now() - t0) / 1000;
      await settle();
      const deliveredDuring = count("SELECT COUNT(*) AS n FROM orders WHERE status = 'delivered'") - deliveredBefore;
      const placedTotal = count('SELECT COUNT(*) AS n FROM orders');
      const stillOpen = count("SELECT COUNT(*) AS n FROM orders WHERE status IN ('placed', 'working')");
      const failed = count("SELECT COUNT(*) AS n FROM orders WHERE status = 'failed'");
      const verdict = (r: LoadResult) => `p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.rps} req/s, ${r.errors} errors, ${r.non2xx} non-2xx — ${r.p99 <= 20 ? 'meets' : 'MISSES'} the target (p99 ≤ 20 ms)`;
      return [
        `### 1. Order placement at ${CONNECTIONS} connections (one account credited $1M, the $5 price held off its balance per order)`,
        table([single, alone, busy]),
        '',
        `- one connection: p50 ${single.p50} ms, p99 ${single.p99} ms, ${single.rps} req/s (the cost of a placement without queueing)`,
        `- placement alone: ${verdict(alone)}; ${placedAlone} orders on the account by then, all ${backlog} open ones waiting for the paused model`,
        `- with the orders made and delivered meanwhile (the backlog of the first run included): ${verdict(busy)}; ${deliveredDuring} orders delivered during the ${seconds.toFixed(0)} s of load (${(deliveredDuring / seconds).toFixed(0)}/s) while ${placedTotal - placedAlone} more were placed; at the end ${stillOpen} still open, ${failed} failed`,
      ];
    } finally {
      db.close();
      await control(llm, 'resume');
    }
  } finally {
    await c.gw.stop();
  }
}

/** Target 2: 1,000 orders placed concurrently and delivered; every one held once and captured once. */
async function delivery(c: Commercial, llm: string): Promise<{ lines: string[]; key: string }> {
  const before = (await control(llm, 'stats')).served as number;
  const probe = await account(c, 'probe@bench.example', 5_000_000);
  const price = (await placeOne(c, probe.key)).price;
  const extra = 3_210_000; // a remainder that is not a multiple of the price
  const credit = ORDERS * price + extra;
  const acct = await account(c, 'orders@bench.example', credit);
  const dbFile = path.join(c.gw.dataDir, 'gateway.db');
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const delivered = db.prepare("SELECT COUNT(*) AS n FROM orders WHERE account_id = ? AND status = 'delivered'");
    const ids: string[] = [];
    const latencies: number[] = [];
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < ORDERS) {
          next++;
          const o = await placeOne(c, acct.key);
          ids.push(o.id);
          latencies.push(o.ms);
        }
      }),
    );
    const placedMs = performance.now() - t0;
    let done = 0;
    while ((done = (delivered.get(acct.id) as { n: number }).n) < ORDERS && performance.now() - t0 < 300_000) await new Promise((r) => setTimeout(r, 20));
    const allMs = performance.now() - t0;
    if (done < ORDERS) throw new Error(`only ${done} of ${ORDERS} orders delivered after ${(allMs / 1000).toFixed(0)} s`);

    // The database file, read-only: each order delivered and captured at its price, with one hold and one capture.
    const states = db.prepare('SELECT status, payment_state, COUNT(*) AS n, SUM(charged) AS charged FROM orders WHERE account_id = ? GROUP BY status, payment_state').all(acct.id) as {
      status: string;
      payment_state: string;
      n: number;
      charged: number;
    }[];
    const perOrder = db
      .prepare(
        `SELECT o.id, SUM(l.kind = 'hold') AS holds, SUM(l.kind = 'capture') AS captures, SUM(l.kind = 'release') AS releases, SUM(CASE WHEN l.kind = 'capture' THEN l.amount ELSE 0 END) AS captured
         FROM orders o LEFT JOIN account_ledger l ON l.reference = o.id WHERE o.account_id = ? GROUP BY o.id`,
      )
      .all(acct.id) as { id: string; holds: number; captures: number; releases: number; captured: number }[];
    const wrong = perOrder.filter((r) => r.holds !== 1 || r.captures !== 1 || r.releases !== 0 || r.captured !== price);
    const orphans = (
      db.prepare("SELECT COUNT(*) AS n FROM account_ledger WHERE account_id = ? AND kind != 'credit' AND (reference IS NULL OR reference NOT IN (SELECT id FROM orders))").get(acct.id) as { n: number }
    ).n;
    const balance = (db.prepare('SELECT balance FROM account_balances WHERE account_id = ?').get(acct.id) as { balance: number }).balance;
    const ledgerSum = (db.prepare('SELECT SUM(delta) AS s FROM account_ledger WHERE account_id = ?').get(acct.id) as { s: number }).s;
    const unknownIds = ids.filter((id) => !perOrder.some((r) => r.id === id)).length;
    const expected = credit - ORDERS * price;
    const usage = (await call(c.api, 'GET', '/usage', { headers: { 'x-revenue-key': acct.key } })).body;
    const calls = ((await control(llm, 'stats')).served as number) - before;

    const allDelivered = states.length === 1 && states[0]!.status === 'delivered' && states[0]!.payment_state === 'captured' && states[0]!.n === ORDERS;
    const ok =
      allDelivered &&
      perOrder.length === ORDERS &&
      wrong.length === 0 &&
      orphans === 0 &&
      unknownIds === 0 &&
      balance === expected &&
      ledgerSum === balance &&
      usage.balance === expected &&
      usage.captured?.charges === ORDERS &&
      usage.held?.micro_usd === 0 &&
      usage.open_orders === 0;
    return {
      key: acct.key,
      lines: [
        `### 2. ${ORDERS} orders placed (${CONNECTIONS} at a time) and delivered`,
        `- placed in ${(placedMs / 1000).toFixed(2)} s (${((ORDERS / placedMs) * 1000).toFixed(0)} orders/s, p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms); all delivered ${(allMs / 1000).toFixed(2)} s after the first was placed: ${((ORDERS / allMs) * 1000).toFixed(0)} orders/s delivered end to end (${calls} model calls, 1 for the probe order)`,
        `- database (read-only): ${states.map((s) => `${s.n} ${s.status}/${s.payment_state} charged ${s.charged}`).join('; ')}; orders with other than exactly one hold, one capture at the price and no release: ${wrong.length}${wrong.length ? ` (e.g. ${JSON.stringify(wrong[0])})` : ''}; hold/capture/release rows of no order: ${orphans}; placed ids missing: ${unknownIds}`,
        `- balance ${balance} µ$ = credit ${credit} − ${ORDERS} × ${price}: ${balance === expected ? 'yes' : `NO (expected ${expected})`}; ledger deltas sum to ${ledgerSum}; GET /usage: balance ${usage.balance}, ${usage.captured?.charges} charges, ${usage.captured?.micro_usd} µ$ captured, ${usage.held?.micro_usd} held, ${usage.open_orders} open`,
        `- ${ok ? 'no lost or double capture: meets the target' : 'MISSES the target: see above'}`,
      ],
    };
  } finally {
    db.close();
  }
}

/** Target 3: GET /usage (api listener) against GET /agents/{handle} (main listener), same connections and duration. */
async function reads(c: Commercial, bigKey: string): Promise<string[]> {
  const reg = await call(c.gw.url, 'POST', '/agents/register', { body: { handle: 'bench-agent' } });
  if (reg.status !== 201 && reg.status !== 200) throw new Error(`agent registration answered ${reg.status}`);
  const reader = await account(c, 'reader@bench.example', 50_000_000);
  for (let i = 0; i < 3; i++) await waitDelivered(c, reader.key, (await placeOne(c, reader.key)).id);
  const usageCheck = await call(c.api, 'GET', '/usage', { headers: { 'x-revenue-key': reader.key } });
  if (usageCheck.status !== 200 || usageCheck.body.captured?.charges !== 3) throw new Error(`GET /usage answered ${usageCheck.status}: ${JSON.stringify(usageCheck.body)}`);
  const profile = await load('GET /agents/{handle} (main listener, REST profile read)', { url: `${c.gw.url}/agents/bench-agent` });
  const usage = await load('GET /usage (api listener, account with 3 orders)', { url: `${c.api}/usage`, headers: { 'x-revenue-key': reader.key } });
  const big = await load(`GET /usage (api listener, account with ${ORDERS} orders)`, { url: `${c.api}/usage`, headers: { 'x-revenue-key': bigKey } });
  const ratio = usage.rps / profile.rps;
  return [
    '### 3. Usage read against the REST profile read (same connections, warm-up and duration)',
    table([profile, usage, big], { profile: profile.rps }),
    '',
    `- GET /usage: ${ratio.toFixed(2)}× GET /agents/{handle} (target ≥ 0.8: ${ratio >= 0.8 ? 'meets' : 'MISSES'}); an account with ${ORDERS} orders: ${(big.rps / profile.rps).toFixed(2)}× (the read is two rows kept by triggers, whatever the number of orders)`,
  ];
}

export async function commercial(): Promise<string> {
  const llm: Running = await startScript('openai-chat.mjs');
  const out = ['## Commercial group (issue 23)'];
  try {
    out.push(...(await placement(llm.url)), '');
    const c = await startCommercial(llm.url);
    try {
      const d = await delivery(c, llm.url);
      out.push(...d.lines, '');
      out.push(...(await reads(c, d.key)));
    } finally {
      await c.gw.stop();
    }
  } finally {
    await llm.stop();
  }
  return out.join('\n');
}
