// Fields filled from what the engines found, by name and type: structured data first (the record of the page's
// items that names most fields, records.ts; then any key path of JSON-LD, microdata, RDFa, OpenGraph and tables:
// the page says what the value is), then entities and patterns for fields whose name or type says what they
// hold. A value is taken only when it fits the field's schema; a field nothing fits is null and listed as missing,
// never guessed.
import { coerce } from './coerce.js';
import type { Entities, EntityKind, PatternKind } from './entities.js';
import { mergedById } from './identity.js';
import { namesFor, norm } from './names.js';
import { fillField, pickRecord } from './records.js';
import type { Field, Kind } from './schema.js';
import type { Candidate, StructuredSource } from './structured.js';
import { allThings, type Thing } from './things.js';

export type SourceName = StructuredSource | `entity:${EntityKind}` | 'pattern' | 'llm';

export interface FieldSource {
  source: SourceName;
  confidence: number;
  /** The key it was read under (structured data), or the pattern's kind. */
  key?: string;
}

export interface Mapped {
  data: Record<string, unknown>;
  sources: Record<string, FieldSource>;
  missing: string[];
}

const CONFIDENCE: Record<StructuredSource, number> = { 'json-ld': 0.95, microdata: 0.9, rdfa: 0.9, opengraph: 0.85, table: 0.8 };
const ORDER: StructuredSource[] = ['json-ld', 'microdata', 'rdfa', 'opengraph', 'table'];
/** Confidence lost by a single-valued field read where several values were (the first is taken). */
const SEVERAL = 0.2;

/** What a field's name says it holds, when its type does not say. */
const NAME_KINDS: [RegExp, Kind][] = [
  [/e-?mail/, 'email'],
  [/(^|_)(url|uri|website|homepage|link|site)s?($|_)/, 'url'],
  [/phone|^tel$|telephone|mobile|fax/, 'phone'],
  [/date|birthday|^born|deadline|^when$|_on$|_at$|published|founded/, 'date'],
  [/price|cost|amount|salary|fee|total|budget|revenue|funding|valuation/, 'money'],
  [/compan|organi[sz]ation|^org$|employer|publisher|brand|business|firm|vendor|seller|manufacturer|agency|university|school|team/, 'organization'],
  [/person|people|^name$|full_?name|author|contact|ceo|founder|manager|owner|speaker|director|employee|customer|buyer|recipient|^who$|member/, 'person'],
  [/place|location|city|country|address|venue|region|town|headquarters|^hq$|^where$|state/, 'place'],
];

export function kindOf(f: Field): Kind | undefined {
  if (f.kind) return f.kind;
  const n = f.name.toLowerCase().replace(/[\s-]+/g, '_');
  for (const [re, kind] of NAME_KINDS) if (re.test(n)) return kind;
  return undefined;
}

const PATTERN_KINDS: Record<string, PatternKind> = { email: 'email', url: 'url', phone: 'phone' };

function fromStructured(f: Field, candidates: Candidate[]): { values: unknown[]; source: StructuredSource; key: string } | undefined {
  const names = namesFor(f.name);
  for (const source of ORDER) {
    for (const want of names) {
      const values: unknown[] = [];
      let key = '';
      for (const c of candidates) {
        if (c.source !== source) continue;
        const last = norm(c.path[c.path.length - 1] ?? '');
        if (last !== want && norm(c.path.join('')) !== want) continue;
        const v = coerce(f, c.value);
        if (v === undefined || values.some((x) => x === v)) continue;
        values.push(v);
        key ||= c.path.join('.');
        if (!f.array) break;
      }
      if (values.length) return { values, source, key };
    }
  }
  return undefined;
}

function fromText(f: Field, found: Entities): { values: unknown[]; source: SourceName; key?: string; several: boolean } | undefined {
  const kind = kindOf(f);
  if (!kind) return undefined;
  const pattern = PATTERN_KINDS[kind] as PatternKind | undefined;
  const raw: (string | number)[] = pattern ? found.pattern[pattern] : kind === 'money' && f.type !== 'string' ? found.amounts : found.entity[kind as EntityKind];
  const values: unknown[] = [];
  for (const r of raw) {
    const v = coerce(f, r);
    if (v !== undefined && !values.includes(v)) values.push(v);
  }
  if (!values.length) return undefined;
  return { values: f.array ? values : [values[0]], source: pattern ? 'pattern' : `entity:${kind as EntityKind}`, ...(pattern ? { key: pattern } : {}), several: values.length > 1 };
}

/** Which entity kinds the fields need, so the NLP runs only when some field wants it. */
export function entityKindsFor(fields: Field[]): Set<EntityKind> {
  const out = new Set<EntityKind>();
  for (const f of fields) {
    if (f.type === 'object') continue; // filled from structured data only
    const k = kindOf(f);
    if (k && !PATTERN_KINDS[k]) out.add(k as EntityKind);
  }
  return out;
}

/** An object field the record lacks: the first item anywhere with a value under the field's name. */
function fromAnyItem(f: Field, things: Thing[], byId: Map<string, Thing>): { value: unknown; source: StructuredSource; key: string; several: boolean } | undefined {
  for (const t of things) {
    const r = fillField(t, f, 0, byId);
    if (r) return { ...r, source: t.source };
  }
  return undefined;
}

const round = (c: number): number => Math.round(c * 100) / 100;

export function mapFields(fields: Field[], things: Thing[], candidates: Candidate[], found: Entities): Mapped {
  const out: Mapped = { data: {}, sources: {}, missing: [] };
  const every = allThings(things);
  const byId = mergedById(things);
  const record = pickRecord(fields, every);
  for (const f of fields) {
    const r = record && fillField(record, f, 0, byId);
    if (r) {
      out.data[f.name] = r.value;
      out.sources[f.name] = { source: record.source, confidence: round(CONFIDENCE[record.source] - (r.several ? SEVERAL : 0)), key: r.key };
      continue;
    }
    if (f.type === 'object') {
      const o = fromAnyItem(f, every, byId);
      if (o) {
        out.data[f.name] = o.value;
        out.sources[f.name] = { source: o.source, confidence: round(CONFIDENCE[o.source] - (o.several ? SEVERAL : 0)), key: o.key };
      } else {
        out.data[f.name] = null;
        out.missing.push(f.name);
      }
      continue;
    }
    const s = fromStructured(f, candidates);
    if (s) {
      out.data[f.name] = f.array ? s.values : s.values[0];
      out.sources[f.name] = { source: s.source, confidence: CONFIDENCE[s.source], key: s.key };
      continue;
    }
    const t = fromText(f, found);
    if (t) {
      out.data[f.name] = f.array ? t.values : t.values[0];
      // A pattern match is what it says; an entity is the engine's reading; a scalar field with several is its first.
      let confidence = t.source === 'pattern' ? 0.9 : 0.7;
      if (!f.array && t.several) confidence -= SEVERAL;
      if (!f.kind && norm(f.name) === 'name') confidence -= 0.1; // "name" could be a product's: a person is a guess
      out.sources[f.name] = { source: t.source, confidence: round(confidence), ...(t.key ? { key: t.key } : {}) };
      continue;
    }
    out.data[f.name] = null;
    out.missing.push(f.name);
  }
  return out;
}
