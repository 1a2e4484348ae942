// A small in-memory BM25 index for ranked retrieval over short documents (tool names and descriptions).
// Deterministic: the same documents and query always give the same ranking (ties break on the id).

export interface IndexedDoc {
  id: string;
  /** Text per field with a weight: a field of weight 3 counts its terms three times. */
  fields: { text: string; weight: number }[];
}

export interface Hit {
  id: string;
  score: number;
}

const STOP = new Set(
  ('a an and are as at be by can do does for from how i in into is it its me my of on or our so that the their them then there ' +
    'these this to us was we what when where which who why will with you your yours want need please could would should ' +
    'get use using make some any about just also not all one may')
    .split(' '),
);

/** Light suffix stripping, so "entries"/"entry", "stored"/"store" and "watching"/"watches" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Lowercase word terms without stop words; snake_case names split into their parts too. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[a-z0-9]+(?:_[a-z0-9]+)*/g) ?? []) {
    const parts = raw.includes('_') ? [raw, ...raw.split('_')] : [raw];
    for (const p of parts) if (p.length > 1 && !STOP.has(p)) out.push(stem(p));
  }
  return out;
}

export class TextIndex {
  /** Postings: for each term, the documents holding it with the term's weighted frequency there. */
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly ids: string[] = [];
  private readonly len: number[] = [];
  private avgLen = 1;

  constructor(
    docs: IndexedDoc[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    let total = 0;
    docs.forEach((d, doc) => {
      const counts = new Map<string, number>();
      let n = 0;
      for (const f of d.fields) {
        for (const t of terms(f.text)) {
          counts.set(t, (counts.get(t) ?? 0) + f.weight);
          n += f.weight;
        }
      }
      this.ids.push(d.id);
      this.len.push(n);
      total += n;
      for (const [t, tf] of counts) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push({ doc, tf });
      }
    });
    this.avgLen = docs.length ? total / docs.length : 1;
  }

  /** Documents matching any query term, best first; `boost` weighs query terms (default 1). */
  search(queryTerms: string[], limit = 10, boost: Map<string, number> = new Map()): Hit[] {
    const n = this.ids.length;
    const scores = new Float64Array(n);
    for (const t of new Set(queryTerms)) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      const w = (boost.get(t) ?? 1) * idf;
      for (const { doc, tf } of list) {
        scores[doc] += (w * (tf * (this.k1 + 1))) / (tf + this.k1 * (1 - this.b + (this.b * this.len[doc]) / this.avgLen));
      }
    }
    const hits: Hit[] = [];
    for (let i = 0; i < n; i++) if (scores[i] > 0) hits.push({ id: this.ids[i], score: scores[i] });
    hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
    return hits.slice(0, limit);
  }
}
