// Issue 40: memory that finds what an agent asks in its own words, measured on LoCoMo (test/helpers/locomo.ts says
// how a conversation is stored and asked). Each conversation goes to its own agent of one built gateway through
// memory_import; each question is asked of GET /memory/search as written (limit 10), one at a time, timed. Beside it
// the anchor: plain BM25 over the same turns and questions (minisearch, every word, ranked). Conversations 26, 30,
// 41, 42 and 43 were used to develop the ranking; the other five were kept aside.
// With BENCH_EMBEDDINGS_BASE_URL (and BENCH_EMBEDDINGS_MODEL), a real embeddings endpoint is measured too; the
// embeddings plumbing is always measured with a deterministic stand-in on loopback (hashed words, 64 dimensions).
import MiniSearch from 'minisearch';
import { performance } from 'node:perf_hooks';
import { startOpenAiServer } from '../../test/helpers/openai-server.js';
import { evidenceKeys, LOCOMO_DEV, loadLocomo, locomoJsonl, locomoNamespace, locomoRecall, type LocomoConversation, type Recall } from '../../test/helpers/locomo.js';
import { startGateway } from '../lib/processes.js';

const K = 10;
const pct = (n: number, of: number) => (of ? ((100 * n) / of).toFixed(1) : '–');
const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const r = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const body = await r.json();
  if (r.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url} answered ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** The anchor: minisearch's BM25 over "speaker: text [image] (date)" of each turn, any word, its default ranking. */
function anchorSearch(c: LocomoConversation): (q: string) => Promise<string[]> {
  const ms = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
  ms.addAll(c.sessions.flatMap((s) => s.turns.map((t) => ({ id: t.id, text: `${t.speaker}: ${t.text}${t.image ? ` [${t.image}]` : ''} (${s.date})` }))));
  return async (q) => ms.search(q).slice(0, K).map((r) => String(r.id));
}

interface Run {
  recall: Map<string, Recall>;
  latencies: number[];
}

/** Stores every conversation in a fresh gateway and asks every question; `env` configures the gateway. */
async function measure(data: LocomoConversation[], env: Record<string, string> = {}, waitEmbedded = false): Promise<Run> {
  const gw = await startGateway(env);
  try {
    const secrets = new Map<string, string>();
    let turns = 0;
    for (const c of data) {
      const { secret } = await json(`${gw.url}/agents/register`, { method: 'POST', body: JSON.stringify({ handle: `locomo-${c.id}` }) });
      secrets.set(c.id, secret);
      await json(`${gw.url}/memory/import`, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: JSON.stringify({ jsonl: locomoJsonl(c) }) });
      turns += c.sessions.reduce((n, s) => n + s.turns.length, 0);
    }
    if (waitEmbedded) {
      for (let t0 = Date.now(); (await json(`${gw.url}/search/stats`)).embedded < turns; ) {
        if (Date.now() - t0 > 600_000) throw new Error('entries not embedded within 10 minutes');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const run: Run = { recall: new Map(), latencies: [] };
    for (const c of data) {
      const auth = { authorization: `Bearer ${secrets.get(c.id)}` };
      run.recall.set(
        c.id,
        await locomoRecall(c, async (q) => {
          const t0 = performance.now();
          const r = await json(`${gw.url}/memory/search?${new URLSearchParams({ q, ns: locomoNamespace(c), limit: String(K) })}`, { headers: auth });
          run.latencies.push(performance.now() - t0);
          return r.results.map((x: { key: string }) => x.key);
        }),
      );
    }
    return run;
  } finally {
    await gw.stop();
  }
}

function sum(rs: Recall[]): Recall {
  return rs.reduce((a, r) => ({ questions: a.questions + r.questions, at1: a.at1 + r.at1, at5: a.at5 + r.at5, at10: a.at10 + r.at10 }), { questions: 0, at1: 0, at5: 0, at10: 0 });
}

const row = (name: string, r: Recall, anchor: Recall) =>
  `| ${name} | ${r.questions} | ${pct(r.at1, r.questions)} | ${pct(r.at5, r.questions)} | ${pct(r.at10, r.questions)} | ${pct(anchor.at5, anchor.questions)} | ${pct(anchor.at10, anchor.questions)} |`;

function report(title: string, data: LocomoConversation[], run: Run, anchor: Map<string, Recall>): string[] {
  const out = [`### ${title}`, '', '| conversation | questions | R@1 % | R@5 % | R@10 % | anchor R@5 % | anchor R@10 % |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const c of data) out.push(row(`${c.id}${LOCOMO_DEV.includes(c.id) ? ' (dev)' : ''}`, run.recall.get(c.id)!, anchor.get(c.id)!));
  const part = (ids: string[]) => [sum(ids.map((id) => run.recall.get(id)!)), sum(ids.map((id) => anchor.get(id)!))] as const;
  const dev = data.filter((c) => LOCOMO_DEV.includes(c.id)).map((c) => c.id);
  const aside = data.filter((c) => !LOCOMO_DEV.includes(c.id)).map((c) => c.id);
  if (dev.length) out.push(row('**development five**', ...part(dev)));
  if (aside.length) out.push(row('**kept-aside five**', ...part(aside)));
  out.push(row('**all**', ...part(data.map((c) => c.id))));
  out.push('', `- /memory/search, one question at a time: p50 ${quantile(run.latencies, 0.5).toFixed(1)} ms, p99 ${quantile(run.latencies, 0.99).toFixed(1)} ms over ${run.latencies.length} questions`);
  return out;
}

export async function recall(): Promise<string> {
  const only = process.env.BENCH_RECALL_CONVERSATIONS?.split(',');
  const data = loadLocomo().filter((c) => !only || only.includes(c.id));
  for (const c of data) for (const qa of c.qa) evidenceKeys(qa.evidence);
  const anchor = new Map<string, Recall>();
  for (const c of data) anchor.set(c.id, await locomoRecall(c, anchorSearch(c)));
  const out = ['## Memory recall on LoCoMo (issue 40)', '', 'Targets (no model): R@10 ≥ 75%, R@5 ≥ 65% over the ten conversations; anchor: plain BM25 (minisearch).', ''];
  out.push(...report('Lexical (no model configured)', data, await measure(data), anchor), '');
  const standIn = await startOpenAiServer();
  try {
    const env = { EMBEDDINGS_BASE_URL: standIn.url, EMBEDDINGS_MODEL: 'stand-in' };
    out.push(...report('With the deterministic embeddings stand-in (hashed words, 64 dimensions: plumbing, not a model)', data, await measure(data, env, true), anchor), '');
  } finally {
    await standIn.close();
  }
  if (process.env.BENCH_EMBEDDINGS_BASE_URL) {
    const env: Record<string, string> = { EMBEDDINGS_BASE_URL: process.env.BENCH_EMBEDDINGS_BASE_URL };
    if (process.env.BENCH_EMBEDDINGS_MODEL) env.EMBEDDINGS_MODEL = process.env.BENCH_EMBEDDINGS_MODEL;
    if (process.env.BENCH_EMBEDDINGS_API_KEY) env.EMBEDDINGS_API_KEY = process.env.BENCH_EMBEDDINGS_API_KEY;
    out.push(...report(`With ${env.EMBEDDINGS_MODEL ?? 'the default model'} at ${env.EMBEDDINGS_BASE_URL}`, data, await measure(data, env, true), anchor), '');
  } else out.push('- No real embeddings model configured here (BENCH_EMBEDDINGS_BASE_URL unset): no model figure.');
  return out.join('\n');
}
