// Issue 26, the per-request budget of REST GET /agents/{handle}: the gateway answering at each step of its
// pipeline (bench/lib/step-variants.ts) beside the fastify peer, in alternating rounds (BENCH_BUDGET_ROUNDS,
// default 3), each target at the same load. A step's cost is the difference of µs per request (1 / req/s of a
// saturated event loop) between its variant and the one before. Run only when named.
import fs from 'node:fs';
import { load } from '../lib/cannon.js';
import { startGateway, startScript } from '../lib/processes.js';
import { buildVariants, STEPS } from '../lib/step-variants.js';

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const us = (rps: number) => 1e6 / rps;

async function measure(start: () => Promise<{ url: string; stop(): Promise<void> }>, register: boolean): Promise<number> {
  const target = await start();
  try {
    if (register) {
      const r = await fetch(`${target.url}/agents/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handle: 'bench-agent' }) });
      if (r.status !== 201) throw new Error(`register answered ${r.status}`);
    }
    const res = await load('budget', { url: `${target.url}/agents/bench-agent`, duration: 4 });
    if (res.non2xx || res.errors) throw new Error(`${res.non2xx} non-2xx and ${res.errors} errors`);
    return res.rps;
  } finally {
    await target.stop();
  }
}

export async function budget(): Promise<string> {
  const rounds = Number(process.env.BENCH_BUDGET_ROUNDS ?? 3);
  const { root, dists } = buildVariants();
  const peer: number[] = [];
  const steps: number[][] = STEPS.map(() => []);
  try {
    for (let round = 0; round < rounds; round++) {
      peer.push(await measure(() => startScript('fastify-peer.mjs'), false));
      for (const [i, dist] of dists.entries()) steps[i].push(await measure(() => startGateway({}, undefined, dist), true));
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  const out = ['## Per-request budget, REST GET /agents/{handle} (issue 26)', '', '| the gateway answering after | req/s (median) | µs a request | the step costs | |', '|---|---:|---:|---:|---|'];
  let before = 0;
  for (const [i, step] of STEPS.entries()) {
    const at = us(median(steps[i]));
    out.push(`| ${step.name} | ${median(steps[i])} | ${at.toFixed(1)} | ${(at - before).toFixed(1)} | ${step.what} |`);
    before = at;
  }
  out.push(`| the fastify peer, whole request | ${median(peer)} | ${us(median(peer)).toFixed(1)} | | ${rounds} rounds, alternating |`);
  return out.join('\n');
}
