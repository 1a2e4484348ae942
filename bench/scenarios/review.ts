// Issue 24 target: code review of a 500-line TypeScript file p50 ≤ 1.5 s. Measured twice: the engines alone
// (ESLint on the stripped TypeScript, the secret scan) in this process, and POST /review end to end on the built
// gateway's commercial listener (hold, engines, capture), sequential, after a warm-up.
import { review } from '../../tools/commercial/review/engine.js';
import { commercialAccount, pct, requestJson, timeSequential } from '../lib/commercial.js';
import { BENCH_OPERATOR_TOKEN, freePort, startGateway } from '../lib/processes.js';

const BLOCK = (i: number) => `
interface Row${i} { id: number; name: string; tags: string[] }
export async function load${i}(db: { query(sql: string, args: unknown[]): Promise<Row${i}[]> }, name: string): Promise<Row${i}[]> {
  const rows = await db.query('SELECT * FROM t WHERE name = $1', [name]);
  const out: Row${i}[] = [];
  for (const r of rows) {
    if (r.tags.length === 0) continue;
    out.push({ ...r, name: r.name.trim() });
  }
  var total: number = out.length;
  if (total == 0) eval(name);
  return out.sort((a, b) => a.id - b.id);
}
`;
/** 500 lines of TypeScript: whole blocks (13 lines, one var, one ==, one eval each), then comment lines. */
export const FILE = (() => {
  let lines: string[] = [];
  for (let i = 0; lines.length + 13 <= 500; i++) lines = lines.concat(BLOCK(i).slice(1).split('\n').slice(0, 13));
  while (lines.length < 500) lines.push('// end');
  return lines.join('\n');
})();

export async function reviewBench(): Promise<string> {
  const engine = await timeSequential(() => review({ code: FILE, language: 'typescript' }), { warmup: 5, runs: 30 });
  const apiPort = await freePort();
  const gw = await startGateway({ GATEWAY_API_PORT: String(apiPort), GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const { key } = await commercialAccount(gw, apiUrl, 'bench-review@example.com', 10_000_000_000);
  const call = async () => {
    const r = await requestJson('POST', apiUrl, '/review', { code: FILE, filename: 'bench.ts' }, { 'x-revenue-key': key });
    if (r.status !== 200) throw new Error(`POST /review answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const first = await call();
  const e2e = await timeSequential(call, { warmup: 5, runs: 30 });
  await gw.stop();
  return [
    '## Code review (issue 24)',
    `- ${FILE.split('\n').length}-line TypeScript file (${FILE.length} characters), no model:`,
    `  - engines alone (amaro strip, ESLint, secretlint): p50 ${pct(engine, 50).toFixed(1)} ms, p99 ${pct(engine, 99).toFixed(1)} ms`,
    `  - POST /review end to end (order held, engines, captured; sequential): p50 ${pct(e2e, 50).toFixed(1)} ms, p99 ${pct(e2e, 99).toFixed(1)} ms (target p50 ≤ 1,500 ms)`,
    `  - findings per call: ${first.findings.length} (${JSON.stringify(first.summary)})`,
  ].join('\n');
}
