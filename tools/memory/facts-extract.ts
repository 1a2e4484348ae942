// Deterministic fact extraction (no language model): entities from text with `compromise`, #topics, tags,
// and the key paths of JSON values (`profile.city = "Lisbon"`).
import type NlpModule from 'compromise';

/** compromise is large; it loads with the first extraction, off the request path, not at start-up. */
let nlp: typeof NlpModule;

export interface Fact {
  kind: 'entity' | 'topic' | 'path' | 'tag';
  subject: string;
  object: string;
  norm: string;
}

const MAX_PATHS = 200;
const MAX_VALUE = 200;
const MAX_TEXT = 20_000;

const norm = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

function paths(value: unknown, prefix: string, out: Fact[]): void {
  if (out.length >= MAX_PATHS) return;
  if (value === null || typeof value !== 'object') {
    if (!prefix) return;
    const v = String(value).slice(0, MAX_VALUE);
    out.push({ kind: 'path', subject: prefix, object: v, norm: `${norm(prefix)}=${norm(v)}` });
    return;
  }
  if (Array.isArray(value)) {
    value.slice(0, 50).forEach((v, i) => paths(v, `${prefix}[${i}]`, out));
    return;
  }
  for (const [k, v] of Object.entries(value)) paths(v, prefix ? `${prefix}.${k}` : k, out);
}

/** The string leaves of a JSON value joined as prose: what entity extraction reads (keys are not prose). */
function prose(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => prose(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => prose(v, out));
  return out;
}

export async function loadNlp(): Promise<void> {
  nlp ??= (await import('compromise')).default;
}

/** Entities and #topics of recent texts: tagging costs a millisecond even for two words, and agents often
 * write the same text again (a rewritten state, the same note under another key). */
const nlpCache = new Map<string, Fact[]>();
const NLP_CACHE_MAX = 2000;
const NLP_CACHE_TEXT_MAX = 4096;

function entitiesOf(text: string): Fact[] {
  const hit = nlpCache.get(text);
  if (hit) return hit;
  const facts: Fact[] = [];
  const doc = nlp(text);
  const add = (names: string[], type: string) => {
    for (const n of names) {
      const clean = n.replace(/[.,;:!?'"()]+$/g, '').trim();
      if (clean.length >= 2) facts.push({ kind: 'entity', subject: clean, object: type, norm: norm(clean) });
    }
  };
  add(doc.people().out('array') as string[], 'person');
  add(doc.places().out('array') as string[], 'place');
  add(doc.organizations().out('array') as string[], 'organization');
  for (const h of doc.hashTags().out('array') as string[]) {
    const t = h.replace(/^#/, '').replace(/[.,;:!?]+$/, '');
    if (t) facts.push({ kind: 'topic', subject: t, object: '', norm: norm(t) });
  }
  if (text.length > NLP_CACHE_TEXT_MAX) return facts;
  if (nlpCache.size >= NLP_CACHE_MAX) nlpCache.delete(nlpCache.keys().next().value as string);
  nlpCache.set(text, facts);
  return facts;
}

export async function extractFacts(value: unknown, tags: string[]): Promise<Fact[]> {
  await loadNlp();
  const facts: Fact[] = [];
  paths(value, '', facts);
  const text = prose(value).map((s) => (/[.!?]$/.test(s.trim()) ? s : `${s}.`)).join(' ');
  for (const t of tags) facts.push({ kind: 'tag', subject: t, object: '', norm: norm(t) });
  facts.push(...entitiesOf(text.slice(0, MAX_TEXT)));
  const seen = new Set<string>();
  return facts.filter((f) => {
    const id = `${f.kind}|${f.norm}|${f.object}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
