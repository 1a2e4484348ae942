// Fields filled from what the engines found, by name and type: structured data first (JSON-LD, microdata,
// OpenGraph, tables: the page says what the value is), then entities and patterns for fields whose name or type
// says what they hold. A value is taken only when it fits the field's schema; a field nothing fits is null and
// listed as missing, never guessed.
import type { Entities, EntityKind, PatternKind } from './entities.js';
import { fits, type Field, type Kind } from './schema.js';
import type { Candidate, StructuredSource } from './structured.js';

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

const CONFIDENCE: Record<StructuredSource, number> = { 'json-ld': 0.95, microdata: 0.9, opengraph: 0.85, table: 0.8 };
const ORDER: StructuredSource[] = ['json-ld', 'microdata', 'opengraph', 'table'];

export const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Other keys that name the same thing in schema.org, OpenGraph and common tables. */
const ALIASES: Record<string, string[]> = {
  title: ['headline', 'name'],
  headline: ['title', 'name'],
  price: ['priceamount', 'offersprice', 'lowprice', 'amount'],
  currency: ['pricecurrency', 'offerspricecurrency', 'pricecurrency'],
  email: ['emailaddress', 'mail', 'contactpointemail'],
  phone: ['telephone', 'tel', 'phonenumber', 'contactpointtelephone'],
  telephone: ['phone', 'tel'],
  url: ['website', 'homepage', 'link'],
  website: ['url', 'homepage'],
  company: ['organization', 'organisation', 'publisher', 'brand', 'worksfor', 'employer', 'sitename'],
  organization: ['organisation', 'company', 'publisher', 'worksfor'],
  organisation: ['organization', 'company', 'publisher', 'worksfor'],
  brand: ['brandname', 'manufacturer'],
  author: ['creator', 'authorname', 'byline'],
  date: ['datepublished', 'publishedtime', 'publisheddate', 'startdate', 'datecreated'],
  published: ['datepublished', 'publishedtime'],
  description: ['summary', 'abstract'],
  image: ['thumbnailurl', 'imageurl', 'photo'],
  address: ['streetaddress', 'location'],
  city: ['addresslocality', 'locality'],
  country: ['addresscountry'],
  location: ['address', 'addresslocality', 'place'],
  rating: ['ratingvalue', 'aggregateratingratingvalue'],
  sku: ['productid', 'mpn'],
  availability: ['offersavailability'],
};

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

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A found value as the field's type, or undefined when it is not one (never stretched into one). */
export function coerce(f: Field, raw: string | number | boolean): unknown {
  let v: unknown = raw;
  if (f.type === 'number' || f.type === 'integer') {
    if (typeof raw === 'string') {
      const m = /^[^\d-]{0,6}(-?\d{1,3}(?:[,\s]\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*([A-Za-z]{3})?\s*$/.exec(raw.trim());
      if (!m) return undefined;
      v = Number(m[1]!.replace(/[,\s]/g, ''));
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
  } else if (f.type === 'boolean') {
    if (typeof raw === 'string') {
      const s = raw.trim().toLowerCase().replace(/^https?:\/\/schema\.org\//, '');
      v = ['true', 'yes', 'instock'].includes(s) ? true : ['false', 'no', 'outofstock'].includes(s) ? false : undefined;
    }
    if (typeof v !== 'boolean') return undefined;
  } else {
    v = typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim() : String(raw);
    const format = f.schema.format;
    // A date field in ISO form: a date the text spells out ("March 3, 2024") becomes 2024-03-03.
    if ((format === 'date' || format === 'date-time') && !/^\d{4}-\d{2}-\d{2}/.test(v as string)) {
      const d = new Date((v as string).replace(/(\d)(st|nd|rd|th)\b/g, '$1'));
      if (Number.isNaN(d.getTime())) return undefined;
      v = format === 'date' ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : d.toISOString();
    } else if (format === 'date' && typeof v === 'string') v = v.slice(0, 10);
  }
  return fits(f, v) ? v : undefined;
}

function fromStructured(f: Field, candidates: Candidate[]): { values: unknown[]; source: StructuredSource; key: string } | undefined {
  const name = norm(f.name);
  const names = [name, ...(ALIASES[name] ?? [])];
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
    const k = kindOf(f);
    if (k && !PATTERN_KINDS[k]) out.add(k as EntityKind);
  }
  return out;
}

export function mapFields(fields: Field[], candidates: Candidate[], found: Entities): Mapped {
  const out: Mapped = { data: {}, sources: {}, missing: [] };
  for (const f of fields) {
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
      if (!f.array && t.several) confidence -= 0.2;
      if (!f.kind && norm(f.name) === 'name') confidence -= 0.1; // "name" could be a product's: a person is a guess
      out.sources[f.name] = { source: t.source, confidence: Math.round(confidence * 100) / 100, ...(t.key ? { key: t.key } : {}) };
      continue;
    }
    out.data[f.name] = null;
    out.missing.push(f.name);
  }
  return out;
}
