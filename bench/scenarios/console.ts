// Issue 44, the operator console's overview with 100,000 calls and 10,000 orders seeded (test/console/seed.ts, over 90
// days, with 1,000 failed-or-delivered webhooks, jobs, x402 settlements and storage owners): time of the operator API's
// GET /operator/overview (the aggregate SQL only) and of the whole page GET /operator (SQL and seven charts rendered
// to SVG, kept or anew), each for the 30- and 90-day windows. The first page of a process compiles the charts (reported apart).
import { performance } from 'node:perf_hooks';
import { startGateway } from '../../test/helpers/gateway.js';
import { seedBulk } from '../../test/console/seed.js';
import { clearChartCache } from '../../src/http/console/charts.js';

const OP = 'bench-operator-token-bench-operator-token';
const pct = (xs: number[], p: number) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

export async function consoleBench(): Promise<string> {
  const gw = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: OP } });
  try {
    const seedStart = performance.now();
    await seedBulk(gw.gateway.db, gw.clock.now(), { days: 90, calls: 100_000, orders: 10_000 });
    const seeded = performance.now() - seedStart;
    const calls = (await gw.gateway.db.get<{ n: number }>('SELECT SUM(calls) AS n FROM tool_usage'))!.n;
    const orders = (await gw.gateway.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM orders'))!.n;
    const time = async (path: string, headers: Record<string, string>): Promise<number> => {
      const t = performance.now();
      const r = await fetch(`${gw.url}${path}`, { headers });
      await r.text();
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      return performance.now() - t;
    };
    const cookie = { cookie: `gw_operator=${OP}` };
    const first = await time('/operator?days=30', cookie);
    const rows: string[] = [];
    for (const days of [30, 90]) {
      for (const [label, path, headers] of [
        ['API GET /operator/overview', `/operator/overview?days=${days}`, { 'x-operator-token': OP }],
        ['page GET /operator, SVG kept from the last request', `/operator?days=${days}`, cookie],
        ['page GET /operator, all seven charts rendered anew', `/operator?days=${days}`, cookie],
      ] as const) {
        const xs: number[] = [];
        for (let i = 0; i < 20; i++) {
          if (label.includes('anew')) clearChartCache();
          xs.push(await time(path, headers));
        }
        rows.push(`| ${label} | ${days} | ${pct(xs, 0.5).toFixed(1)} | ${pct(xs, 0.95).toFixed(1)} |`);
      }
    }
    return [
      `## console (issue 44)`,
      '',
      `Seeded ${calls} tool calls and ${orders} orders over 90 days in ${(seeded / 1000).toFixed(1)} s; first page of the process (charts compiled) ${first.toFixed(0)} ms.`,
      '',
      '| request | days | median ms | p95 ms |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    await gw.cleanup();
  }
}
