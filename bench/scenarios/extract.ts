// Issue 24 target: extraction from a 2,000-word text ≤ 200 ms. Measured twice: the engines alone (the thread's
// work: compromise and the patterns, fields by name and type) in this process, and POST /extract end to end on
// the built gateway's commercial listener (hold, engines on their thread, capture), sequential, after a warm-up.
import { runEngine } from '../../tools/commercial/extract/engine.js';
import { parseSchema, type Field } from '../../tools/commercial/extract/schema.js';
import { commercialAccount, pct, requestJson, timeSequential } from '../lib/commercial.js';
import { BENCH_OPERATOR_TOKEN, freePort, startGateway } from '../lib/processes.js';

const PARAGRAPH =
  'Acme Corporation announced on March 3, 2024 that Alice Johnson will become its chief executive. Johnson joins from Globex Industries in Berlin, ' +
  'where she led the European division. The company said the appointment follows a funding round of $4.5 million. Press enquiries: ' +
  'press@acme.example, +44 20 7946 0958, or https://acme.example/newsroom. Analysts in London expect the firm to grow through the year ahead. ';
/** About 2,000 words: the paragraph (~70 words) repeated. */
export const TEXT = (() => {
  const words = PARAGRAPH.trim().split(/\s+/).length;
  return PARAGRAPH.repeat(Math.ceil(2000 / words));
})();
const SCHEMA = { company: 'organization', ceo: 'person', city: 'place', announced: 'date', funding: 'money', email: 'email', phone: 'phone', website: 'url' };

export async function extract(): Promise<string> {
  const fields = (parseSchema(SCHEMA) as { fields: Field[] }).fields;
  const words = TEXT.trim().split(/\s+/).length;
  const engine = await timeSequential(() => runEngine({ kind: 'text', body: TEXT, fields }), { warmup: 10, runs: 50 });

  const apiPort = await freePort();
  const gw = await startGateway({ GATEWAY_API_PORT: String(apiPort), GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const { key } = await commercialAccount(gw, apiUrl, 'bench-extract@example.com', 1_000_000_000);
  const call = async () => {
    const r = await requestJson('POST', apiUrl, '/extract', { source: TEXT, source_type: 'text', schema: SCHEMA }, { 'x-revenue-key': key });
    if (r.status !== 200) throw new Error(`POST /extract answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const first = await call();
  const e2e = await timeSequential(call, { warmup: 10, runs: 50 });
  await gw.stop();
  return [
    '## Extract (issue 24)',
    `- ${words}-word text, 8 fields (people, organisations, places, dates, money, email, phone, URL), no model:`,
    `  - engines alone: p50 ${pct(engine, 50).toFixed(1)} ms, p99 ${pct(engine, 99).toFixed(1)} ms`,
    `  - POST /extract end to end (order held, engines on their thread, captured; sequential): p50 ${pct(e2e, 50).toFixed(1)} ms, p99 ${pct(e2e, 99).toFixed(1)} ms (target ≤ 200 ms)`,
    `  - charged per call: ${first.tokens.total} tokens, $${first.charged.usd}; missing: ${JSON.stringify(first.missing)}`,
  ].join('\n');
}
