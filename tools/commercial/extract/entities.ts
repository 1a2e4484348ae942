// Entities in free text: people, organisations, places, dates and money by compromise (the NLP engine the
// memory facts use), emails, phone numbers and URLs by standard patterns. Each kind keeps its mentions in order
// of appearance, without repeats.
import nlp from 'compromise';

export type EntityKind = 'person' | 'organization' | 'place' | 'date' | 'money';
export type PatternKind = 'email' | 'phone' | 'url';

export interface Entities {
  entity: Record<EntityKind, string[]>;
  /** Money mentions as numbers ("$4.5 million" → 4500000), in the order of `entity.money`. */
  amounts: number[];
  pattern: Record<PatternKind, string[]>;
}

const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g;
const URL_RE = /\bhttps?:\/\/[^\s<>"'()]+[^\s<>"'().,;:!?]/g;
// International (+44 20 7946 0958) or North American ((555) 123-4567, 555-123-4567) numbers: 7 to 15 digits.
const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}/g;
const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, bn: 1e9, b: 1e9, trillion: 1e12 };

const distinct = (xs: string[]): string[] => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];
const trimPunct = (s: string): string => s.replace(/^[\s"'“‘(]+|[\s"'”’),.;:!?]+$/g, '').replace(/['’]s$/, '');

function phones(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PHONE)) {
    const s = m[0].trim();
    const digits = s.replace(/\D/g, '').length;
    // Dates (2024-05-01) and plain numbers are not phone numbers: a phone has 7-15 digits and separators.
    if (digits < 7 || digits > 15 || /^\d{4}-\d{2}-\d{2}$/.test(s) || !/[\s.()+-]/.test(s)) continue;
    out.push(s);
  }
  return distinct(out);
}

export function findEntities(text: string, wanted: ReadonlySet<EntityKind>): Entities {
  const entity: Entities['entity'] = { person: [], organization: [], place: [], date: [], money: [] };
  const amounts: number[] = [];
  if (wanted.size) {
    const doc = nlp(text);
    const list = (v: { out(f: 'array'): string[] }) => distinct(v.out('array').map(trimPunct));
    if (wanted.has('person')) entity.person = list(doc.people());
    if (wanted.has('organization')) entity.organization = list(doc.organizations());
    if (wanted.has('place')) entity.place = list(doc.places());
    if (wanted.has('date')) entity.date = list(doc.match('#Date+'));
    if (wanted.has('money')) {
      type MoneyJson = { text: string; offset?: { start: number; length: number }; money?: { num?: number } };
      const seen = new Set<string>();
      for (const m of (doc as unknown as { money(): { json(o: object): MoneyJson[] } }).money().json({ offset: true })) {
        const num = m.money?.num;
        if (typeof num !== 'number' || !Number.isFinite(num)) continue;
        let text = trimPunct(m.text);
        let value = num;
        // compromise reads "$4.5" of "$4.5 million": the scale word after it multiplies.
        const after = m.offset ? text.length && /^\s*(thousand|million|billion|trillion|bn|mn|[kmb])\b/i.exec(textAfter(m.offset)) : null;
        if (after) {
          value = num * SCALE[after[1]!.toLowerCase()]!;
          text = `${text}${after[0]}`;
        }
        if (seen.has(text)) continue;
        seen.add(text);
        entity.money.push(text);
        amounts.push(value);
      }
    }
  }
  function textAfter(o: { start: number; length: number }): string {
    return text.slice(o.start + o.length, o.start + o.length + 20);
  }
  return {
    entity,
    amounts,
    pattern: { email: distinct([...text.matchAll(EMAIL)].map((m) => m[0])), url: distinct([...text.matchAll(URL_RE)].map((m) => m[0])), phone: phones(text) },
  };
}
