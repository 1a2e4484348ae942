// A value found by an engine as a field's type, or undefined when it is not one: numbers from their written form
// ("$1,299.00"), booleans from yes/no and schema.org's InStock, dates to ISO for a date field. Never stretched.
import { fits, type Field } from './schema.js';

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
