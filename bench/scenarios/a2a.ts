// Issue 41 target: A2A message/send of a calculator question at ≥ 0.8× the server a user would otherwise deploy,
// @a2a-js/sdk's DefaultRequestHandler with InMemoryTaskStore on express (bench/servers/a2a-sdk.mjs), in the same
// run: the 0.3 JSON-RPC wire against the 0.3.x SDK, and the 1.0 JSON-RPC and HTTP+JSON bindings against the 1.x SDK.
// The gateway is paid with an (unlimited) enterprise key and persists each task; the SDK's executor answers at once.
// Beside req/s, each side's CPU time a request (all its threads, from /proc): on a machine whose two cores the
// servers share with the load generator and with other work, it tells a costlier request from a busier minute.
// One run of a pair swung from 0.47× to 0.77× within minutes here, so the pairs run in alternating rounds
// (BENCH_A2A_ROUNDS, 3 by default), a fresh gateway each round; every figure is the median over the rounds.
import { randomUUID } from 'node:crypto';
import { DEFAULTS, load, table, type LoadOptions, type LoadResult } from '../lib/cannon.js';
import { processCpu } from '../lib/proc-cpu.js';
import { BENCH_OPERATOR_TOKEN, enterpriseKey, startGateway, startScript } from '../lib/processes.js';

const QUESTION = 'convert 255 to base 2';
const JSON_HEADERS = { 'content-type': 'application/json' };
const V1 = { ...JSON_HEADERS, 'a2a-version': '1.0' };

interface Wire {
  name: string;
  path: string;
  headers: Record<string, string>;
  body: () => string;
  /** The answered task's state, as the wire spells it, from a response body. */
  state: (json: any) => string | undefined;
}

let id = 0;
const WIRES: Wire[] = [
  {
    name: 'JSON-RPC 0.3 message/send',
    path: '/a2a',
    headers: JSON_HEADERS,
    body: () => JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: QUESTION }] } } }),
    state: (j) => j.result?.status?.state,
  },
  {
    name: 'JSON-RPC 1.0 SendMessage',
    path: '/a2a',
    headers: V1,
    body: () => JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: QUESTION }] } } }),
    state: (j) => j.result?.task?.status?.state,
  },
  {
    name: 'HTTP+JSON 1.0 message:send',
    path: '/a2a/message:send',
    headers: V1,
    body: () => JSON.stringify({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: QUESTION }] } }),
    state: (j) => j.task?.status?.state,
  },
];

const COMPLETED = new Set(['completed', 'TASK_STATE_COMPLETED']);

/** One send must complete its task before the load runs: a benchmark of errors measures nothing. */
async function check(name: string, url: string, w: Wire, headers: Record<string, string>): Promise<void> {
  const r = await fetch(url, { method: 'POST', headers, body: w.body() });
  const json = await r.json();
  if (r.status !== 200 || !COMPLETED.has(w.state(json) ?? '')) throw new Error(`${name}: ${r.status} ${JSON.stringify(json).slice(0, 300)}`);
}

interface Measured extends LoadResult {
  /** CPU µs a request of the server process, all threads (null where /proc is not there). */
  cpuUs: number | null;
}

/** The warm-up as its own unmeasured load, so the server's CPU time is read around the measured part alone. */
async function measure(name: string, base: string, pid: number, w: Wire, path: string, extra: Record<string, string> = {}): Promise<Measured> {
  const url = `${base}${path}`;
  const headers = { ...w.headers, ...extra };
  await check(name, url, w, headers);
  const o: LoadOptions = { url, method: 'POST', headers, makeBody: w.body, warmup: 0 };
  await load(name, { ...o, duration: DEFAULTS.warmup });
  const cpu0 = processCpu(pid);
  const r = await load(name, o);
  const used = processCpu(pid) - cpu0;
  return { ...r, cpuUs: used > 0 && r.rps > 0 ? Math.round(used / (r.rps * DEFAULTS.duration)) : null };
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The run of median req/s among a target's rounds (its latencies as measured in that run). */
const medianRun = (runs: Measured[]): Measured => runs.slice().sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];

const SDK_NAME = { '0.3': '@a2a-js/sdk 0.3.14', '1': '@a2a-js/sdk 1.3.0' } as const;

export async function a2a(): Promise<string> {
  const rounds = Number(process.env.BENCH_A2A_ROUNDS ?? 3);
  /** Every run of a target (gateway or SDK on a wire), by its name, in the order first measured. */
  const runs = new Map<string, Measured[]>();
  /** Each round's ratio, by the pair's line. */
  const ratios = new Map<string, number[]>();
  const keep = <K, V>(m: Map<K, V[]>, k: K, v: V) => m.set(k, [...(m.get(k) ?? []), v]);
  for (let round = 0; round < rounds; round++) {
    const gw = await startGateway({ GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN });
    try {
      const key = await enterpriseKey(gw.url);
      for (const w of WIRES) {
        const ours = await measure(`gateway: ${w.name}`, gw.url, gw.child.pid!, w, w.path, { 'x-api-key': key });
        keep(runs, ours.name, ours);
        // The 0.3 wire against both lines: the 0.3.x SDK, and a 1.x deployment serving 0.3 clients (legacyCompat).
        for (const sdkLine of w.name.includes('0.3') ? (['0.3', '1'] as const) : (['1'] as const)) {
          const sdk = await startScript('a2a-sdk.mjs', { A2A_SDK: sdkLine });
          try {
            // The 1.x SDK mounts its HTTP+JSON router under /a2a/rest; the gateway's shares the /a2a prefix.
            const theirs = await measure(`${SDK_NAME[sdkLine]}: ${w.name}`, sdk.url, sdk.child.pid!, w, w.path.replace('/a2a/', '/a2a/rest/'));
            keep(runs, theirs.name, theirs);
            keep(ratios, `${w.name}|${SDK_NAME[sdkLine]}`, ours.rps / theirs.rps);
          } finally {
            await sdk.stop();
          }
        }
      }
    } finally {
      await gw.stop();
    }
  }
  const lines = [...ratios].map(([pair, xs]) => {
    const [wire, sdk] = pair.split('|');
    // CPU a request, where /proc gave it.
    const cpu = (name: string) => median((runs.get(name) ?? []).flatMap((r) => (r.cpuUs === null ? [] : [r.cpuUs])));
    const [a, b] = [cpu(`gateway: ${wire}`), cpu(`${sdk}: ${wire}`)];
    const cpuNote = a !== undefined && b !== undefined ? `; CPU a request ${a} µs against ${b} µs` : '';
    return `- ${wire}: **${median(xs).toFixed(2)}×** ${sdk} (target ≥ 0.8; rounds ${xs.map((x) => x.toFixed(2)).join(', ')})${cpuNote}`;
  });
  return [`## A2A against the official SDK server (issue 41), median of ${rounds} alternating rounds`, table([...runs.values()].map(medianRun)), '', ...lines].join('\n');
}
