// What the assistant knows: every reachable tool (name, description, how to call it over REST and MCP,
// price) and the protocol endpoints, in one BM25 index built once per gateway. Ranking is deterministic.
import { stem, terms, TextIndex } from '../../src/llm/text-index.js';
import type { RestBinding, Tool, ToolContext } from '../../src/registry/types.js';
import { priceOf } from '../access/catalog.js';
import { ENDPOINTS } from './endpoints.js';

export interface Capability {
  id: string;
  name: string;
  title?: string;
  kind: 'tool' | 'endpoint' | 'toolset' | 'memory';
  toolset?: string;
  /** The first sentence or two of the description. */
  description: string;
  url: string;
  rest: string | null;
  mcp: { method: 'tools/call'; name: string } | null;
  auth: string;
  price: ReturnType<typeof priceOf>;
}

export interface Ranked extends Capability {
  /** 0–100, higher is better; a fixed transform of the BM25 score (comparable across queries). */
  score: number;
}

interface Catalog {
  index: TextIndex;
  byId: Map<string, Capability>;
  /** The words of each capability's name, as terms, computed once. */
  nameTerms: Map<string, string[]>;
  toolsets: Map<string, Tool[]>;
}

/** Toolsets that are this assistant itself or operator-only: never offered as answers. */
const HIDDEN_TOOLSETS = new Set(['assistant', 'chat', 'operator']);

/** Words people use for what the tools call otherwise; added to the query, never to the documents. */
const SYNONYMS: Record<string, string> = {
  get: 'issue obtain',
  obtain: 'issue',
  see: 'list',
  view: 'list',
  show: 'list',
  schedule: 'create delay',
  post: 'post create',
  publish: 'post',
  remove: 'delete',
  grant: 'share',
  remember: 'memory put store',
  save: 'memory store',
  persist: 'memory',
  note: 'memory',
  recall: 'memory',
  password: 'vault secret',
  credential: 'vault secret',
  token: 'vault secret',
  file: 'artifact',
  upload: 'artifact',
  host: 'artifact',
  download: 'artifact',
  timer: 'job delay',
  wait: 'job delay',
  later: 'job delay',
  errand: 'job',
  background: 'job',
  human: 'handoff',
  person: 'handoff',
  manual: 'handoff',
  monitor: 'watch',
  track: 'watch',
  change: 'watch',
  pay: 'x402 payment',
  payment: 'x402',
  price: 'x402 paid',
  cost: 'x402 paid',
  usdc: 'x402',
  crypto: 'x402',
  signup: 'register',
  sign: 'register',
  account: 'register agent',
  identity: 'agent handle',
  agent: 'handle',
  name: 'handle',
  apikey: 'key',
  quota: 'key',
  inbox: 'notification',
  tray: 'notification',
  connect: 'mcp endpoint',
  protocol: 'endpoint',
  llm: 'chat model',
  gpt: 'chat model',
  binary: 'base_convert',
  hex: 'base_convert',
  hexadecimal: 'base_convert',
  iban: 'checksum_validate',
  isbn: 'checksum_validate',
  holiday: 'business_days',
  weekday: 'business_days',
  luhn: 'card_brand',
  xor: 'bitwise',
  throttle: 'rate_limit',
  escape: 'ansi_strip',
  color: 'ansi_strip',
};

/** SYNONYMS keyed by stemmed word, as terms() yields them. */
const SYNONYM_OF = new Map(Object.entries(SYNONYMS).map(([k, v]) => [stem(k), v]));

const catalogs = new WeakMap<object, Catalog>();

/** The first sentence (or two, when the first is short), at most ~240 characters. */
export function summary(text: string): string {
  const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z`])/);
  let out = sentences[0] ?? text;
  if (out.length < 60 && sentences[1]) out = `${out} ${sentences[1]}`;
  return out.length > 240 ? `${out.slice(0, 237).trimEnd()}…` : out;
}

/** "METHOD /path" of the REST route serving each tool (the first one when several do). */
function restPaths(bindings: readonly RestBinding[], tools: Tool[]): Map<string, string> {
  const out = new Map<string, string>();
  const add = (name: string, r: RestBinding, path: string) => {
    if (!out.has(name)) out.set(name, `${r.method} ${path}`);
  };
  for (const r of bindings) {
    if (r.hidden) continue;
    if (typeof r.tool === 'string') add(r.tool, r, r.path);
    else for (const t of tools) if (r.tool.admits(t)) add(t.name, r, r.path.replace(`{${r.tool.param}}`, t.name));
  }
  return out;
}

function build(ctx: ToolContext): Catalog {
  const base = ctx.config.baseUrl;
  const tools = ctx.services.listTools().filter((t) => !HIDDEN_TOOLSETS.has(t.toolset));
  const rest = restPaths(ctx.services.restBindings, tools);
  const byId = new Map<string, Capability>();
  const toolsets = new Map<string, Tool[]>();
  const docs = [];
  for (const t of tools) {
    const r = rest.get(t.name) ?? null;
    if (!t.expose.mcp && !r) continue;
    toolsets.set(t.toolset, [...(toolsets.get(t.toolset) ?? []), t]);
    const path = r?.split(' ')[1];
    byId.set(t.name, {
      id: t.name,
      name: t.name,
      title: t.title,
      kind: 'tool',
      toolset: t.toolset,
      description: summary(t.description),
      url: path ? `${base}${path}` : `${base}/mcp?toolsets=${t.toolset}#${t.name}`,
      rest: r,
      mcp: t.expose.mcp ? { method: 'tools/call', name: t.name } : null,
      auth: t.auth,
      price: priceOf(t, ctx),
    });
    docs.push({
      id: t.name,
      fields: [
        { text: t.name, weight: 4 },
        { text: t.title ?? '', weight: 2 },
        { text: t.toolset, weight: 2 },
        { text: t.description, weight: 1 },
      ],
    });
  }
  for (const e of ENDPOINTS) {
    byId.set(e.id, { id: e.id, name: e.name, kind: 'endpoint', description: e.description, url: `${base}${e.path}`, rest: `${e.method} ${e.path}`, mcp: null, auth: 'public', price: null });
    docs.push({ id: e.id, fields: [{ text: e.name, weight: 3 }, { text: e.keywords, weight: 2 }, { text: e.description, weight: 1 }] });
  }
  const nameTerms = new Map([...byId.values()].map((c) => [c.id, [...new Set(terms(c.name.replace(/_/g, ' ')))]]));
  return { index: new TextIndex(docs), byId, nameTerms, toolsets };
}

export function catalogOf(ctx: ToolContext): Catalog {
  let c = catalogs.get(ctx.services);
  if (!c) catalogs.set(ctx.services, (c = build(ctx)));
  return c;
}

/** Weighted terms of a question: its own words 1, their synonyms ½ (stop words too may have synonyms). */
export function queryTerms(query: string, weight = 1): Map<string, number> {
  const out = new Map<string, number>();
  const add = (t: string, w: number) => out.set(t, Math.max(out.get(t) ?? 0, w));
  for (const t of terms(query)) add(t, weight);
  for (const raw of query.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const syn = SYNONYM_OF.get(stem(raw));
    if (syn) for (const t of terms(syn)) add(t, weight / 2);
  }
  return out;
}

/** A BM25 score as 0–100: 50 at a score of 4 (a solid two-term match), approaching 100 above. */
export const normalizeScore = (s: number): number => Math.round((100 * s) / (s + 4));

/** Added per question word that is a word of the tool's name: "post on the wall" should find wall_post. */
const NAME_BONUS = 1.5;

/** Capabilities matching the query, best first; earlier questions (`prev`) count at a third of the weight. */
export function rank(ctx: ToolContext, query: string, prev: string[], limit: number): Ranked[] {
  const cat = catalogOf(ctx);
  const weights = queryTerms(query);
  for (const [t, w] of queryTerms(prev.join(' '), 1 / 3)) if (!weights.has(t)) weights.set(t, w);
  const scored = cat.index.search([...weights.keys()], Math.max(limit * 3, 20), weights).map((h) => {
    const c = cat.byId.get(h.id)!;
    let bonus = 0;
    for (const part of cat.nameTerms.get(h.id)!) bonus += (weights.get(part) ?? 0) * NAME_BONUS;
    return { c, score: h.score + bonus };
  });
  scored.sort((x, y) => y.score - x.score || (x.c.id < y.c.id ? -1 : 1));
  return scored.slice(0, limit).map(({ c, score }) => ({ ...c, score: normalizeScore(score) }));
}
