// business_days: count business days between dates, or add N business days to a date, skipping a custom
// weekend, listed holidays and (optionally) a country's public holidays from date-holidays.
// Dates are whole UTC days (day numbers since 1970-01-01), so no timezone or DST can shift them.
// date-holidays is an optional package (src/engines.ts): weekends and listed holidays need nothing, and a country
// without it answers 503 engine_not_installed.
import type HolidaysModule from 'date-holidays';
import { z } from 'zod';
import { missingEngine, requireEngine } from '../../src/engines.js';
import { countryCodesFromIcu } from './country-names.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { CALCULATOR, invalidInput } from './common.js';

const DAY_MS = 86_400_000;
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;
/** date-holidays needs ~5 ms per country-year; this bounds one call to a few seconds. */
const MAX_COUNTRY_YEARS = 400;
const CUSTOM_NAME = 'Custom holiday';

/** Day number of a valid YYYY-MM-DD, or null when the date does not exist (2026-02-30). */
export function dayNumber(iso: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, because Date.UTC maps years 0–99 to 1900–1999.
  const back = new Date(Date.UTC(2000, mo - 1, d));
  back.setUTCFullYear(y);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return back.getTime() / DAY_MS;
}

export const isoDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
const yearOf = (day: number): number => new Date(day * DAY_MS).getUTCFullYear();
/** 0 = Sunday … 6 = Saturday; day 0 (1970-01-01) was a Thursday. */
const weekdayOf = (day: number): number => (((day % 7) + 11) % 7);
const MIN_DAY = Date.UTC(MIN_YEAR, 0, 1) / DAY_MS;
const MAX_DAY = Date.UTC(MAX_YEAR, 11, 31) / DAY_MS;

/** Engines per country and subdivision (some 3,500 of them exist): the 256 made most recently are kept. */
const holidayEngines = new Map<string, HolidaysModule>();
const ENGINES_KEPT = 256;

/** date-holidays is large; it loads on the first call that names a country, not at gateway start-up. */
let Holidays: typeof HolidaysModule;
async function loadHolidays(): Promise<void> {
  Holidays ??= (await import('date-holidays')).default;
}
/** Public holidays per "CC|SUB|year": computing them is the slow part, and they never change. */
const yearCache = new Map<string, [number, string][]>();

function engine(country: string, subdivision?: string): HolidaysModule {
  const key = `${country}|${subdivision ?? ''}`;
  let hd = holidayEngines.get(key);
  if (!hd) {
    hd = subdivision ? new Holidays(country, subdivision) : new Holidays(country);
    if (holidayEngines.size >= ENGINES_KEPT) holidayEngines.delete(holidayEngines.keys().next().value!);
    holidayEngines.set(key, hd);
  }
  return hd;
}

/** Checks country and subdivision against date-holidays' own lists (its init() accepts anything). */
let countryList: Record<string, string> | undefined;

/**
 * Country codes by English name in lower case ("germany" → "DE"), loading date-holidays if need be; without it,
 * ICU's names, so the country is still recognised (and business_days says what it needs).
 */
export async function countryCodesByName(): Promise<Map<string, string>> {
  if (missingEngine('holidays').length) return countryCodesFromIcu();
  await loadHolidays();
  countryList ??= new Holidays().getCountries('en');
  return new Map(Object.entries(countryList).map(([code, name]) => [name.toLowerCase(), code]));
}

export function checkRegion(country: string, subdivision?: string): void {
  countryList ??= new Holidays().getCountries('en');
  if (!(country in countryList)) throw invalidInput('country', `unknown country code '${country}' (ISO 3166-1 alpha-2, e.g. DE, US)`);
  if (subdivision === undefined) return;
  const states = new Holidays().getStates(country, 'en') ?? {};
  if (!(subdivision in states)) {
    const known = Object.keys(states);
    const hint = known.length ? `known: ${known.slice(0, 40).join(', ')}` : `${country} has no subdivisions`;
    throw invalidInput('subdivision', `unknown subdivision '${subdivision}' for ${country} (${hint})`);
  }
}

function publicHolidays(country: string, subdivision: string | undefined, year: number): [number, string][] {
  const key = `${country}|${subdivision ?? ''}|${year}`;
  let days = yearCache.get(key);
  if (!days) {
    days = [];
    for (const h of engine(country, subdivision).getHolidays(year, 'en')) {
      if (h.type !== 'public') continue;
      const first = dayNumber(h.date.slice(0, 10));
      if (first === null) continue;
      // Some entries span several days (e.g. Eid for 3 days): count every day they cover.
      const span = Math.max(1, Math.round((h.end.getTime() - h.start.getTime()) / DAY_MS));
      for (let k = 0; k < span; k++) days.push([first + k, h.name]);
    }
    if (yearCache.size > 5000) yearCache.clear();
    yearCache.set(key, days);
  }
  return days;
}

export interface CalendarOptions {
  weekend: number[];
  holidays?: string[];
  country?: string;
  subdivision?: string;
}

/** Which days are business days; country years are loaded lazily as the walk reaches them. */
export class BusinessCalendar {
  private readonly weekend = new Set<number>();
  private readonly named = new Map<number, string[]>();
  private readonly loaded = new Set<number>();
  private minYear = Infinity;
  private maxYear = -Infinity;
  /** Day range of the year last looked at, so the walk loads years only when it crosses into a new one. */
  private yearLo = 1;
  private yearHi = 0;

  constructor(private readonly opts: CalendarOptions) {
    for (const w of opts.weekend) this.weekend.add(w);
    for (const d of opts.holidays ?? []) {
      const n = dayNumber(d);
      if (n !== null && !this.named.has(n)) this.named.set(n, [CUSTOM_NAME]);
    }
  }

  private load(year: number): void {
    if (!this.opts.country || this.loaded.has(year)) return;
    this.minYear = Math.min(this.minYear, year);
    this.maxYear = Math.max(this.maxYear, year);
    // One extra year is loaded before the first one (spill-over), hence `>` here and `>=` in the handler.
    if (this.maxYear - this.minYear > MAX_COUNTRY_YEARS) {
      throw invalidInput('country', `with a country, the dates may span at most ${MAX_COUNTRY_YEARS} years`);
    }
    this.loaded.add(year);
    for (const [day, name] of publicHolidays(this.opts.country, this.opts.subdivision, year)) {
      const names = this.named.get(day);
      if (!names) this.named.set(day, [name]);
      else if (names[0] === CUSTOM_NAME) names.splice(0, 1, name);
      else if (!names.includes(name)) names.push(name);
    }
  }

  isWeekend(day: number): boolean {
    return this.weekend.has(weekdayOf(day));
  }

  /** Holiday names of a day, loading its year (and the year before, whose holidays may spill over). */
  holiday(day: number): string[] | undefined {
    if (day < this.yearLo || day >= this.yearHi) {
      const y = yearOf(day);
      this.yearLo = Date.UTC(y, 0, 1) / DAY_MS;
      this.yearHi = Date.UTC(y + 1, 0, 1) / DAY_MS;
      this.load(y - 1);
      this.load(y);
    }
    return this.named.get(day);
  }

  isBusinessDay(day: number): boolean {
    return !this.isWeekend(day) && !this.holiday(day);
  }
}

export interface HolidayApplied {
  date: string;
  name: string;
}

/** Visits one day: true if it is a business day; a holiday on a would-be working day is recorded. */
function visit(cal: BusinessCalendar, day: number, applied: HolidayApplied[]): boolean {
  if (cal.isWeekend(day)) return false;
  const names = cal.holiday(day);
  if (!names) return true;
  applied.push({ date: isoDate(day), name: names.join(' / ') });
  return false;
}

/** Business days in [start, end); negative (the count of [end, start)) when end < start. */
export function countBusinessDays(cal: BusinessCalendar, start: number, end: number) {
  const [lo, hi, sign] = end >= start ? [start, end, 1] : [end, start, -1];
  const applied: HolidayApplied[] = [];
  let n = 0;
  for (let d = lo; d < hi; d++) if (visit(cal, d, applied)) n++;
  return { result: sign * n || 0, holidays_applied: applied };
}

/** The date `days` business days after (before, if negative) start; 0 gives start or the next business day. */
export function addBusinessDays(cal: BusinessCalendar, start: number, days: number) {
  const applied: HolidayApplied[] = [];
  const step = days < 0 ? -1 : 1;
  let d = start;
  const outOfRange = () => invalidInput('days', `the result falls outside the supported years ${MIN_YEAR}–${MAX_YEAR}`);
  if (days === 0) {
    while (!visit(cal, d, applied)) if (++d > MAX_DAY) throw outOfRange();
  } else {
    for (let left = Math.abs(days); left > 0; ) {
      d += step;
      if (d < MIN_DAY || d > MAX_DAY) throw outOfRange();
      if (visit(cal, d, applied)) left--;
    }
  }
  if (step < 0) applied.reverse();
  return { result: d, holidays_applied: applied };
}

const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine((s) => dayNumber(s) !== null, 'this date does not exist in the calendar')
  .refine((s) => Number(s.slice(0, 4)) >= MIN_YEAR, `year must be ${MIN_YEAR}–${MAX_YEAR}`);

export const BusinessDaysInput = z
  .object({
    mode: z.enum(['count', 'add']).describe("'count': business days from start to end; 'add': the date N business days from start."),
    start: IsoDate.describe('Start date, YYYY-MM-DD (proleptic Gregorian, years 1000–9999).'),
    end: IsoDate.optional().describe("End date, YYYY-MM-DD (mode 'count' only; exclusive)."),
    days: z
      .number()
      .int()
      .min(-100_000)
      .max(100_000)
      .optional()
      .describe("Business days to add, negative to go back (mode 'add' only; |days| ≤ 100000)."),
    weekend: z
      .array(z.number().int().min(0).max(6))
      .max(7)
      .default([0, 6])
      .refine((w) => new Set(w).size < 7, 'weekend must leave at least one working weekday')
      .describe('Weekday numbers that are never business days, 0 = Sunday … 6 = Saturday (default [0, 6]).'),
    holidays: z
      .array(IsoDate)
      .max(10_000)
      .optional()
      .describe('Extra non-business dates, YYYY-MM-DD (at most 10000).'),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'expected an ISO 3166-1 alpha-2 code such as DE or US')
      .optional()
      .describe("ISO 3166-1 alpha-2 country whose public holidays are skipped too (e.g. 'DE', 'US')."),
    subdivision: z
      .string()
      .regex(/^[A-Za-z0-9]{1,10}$/, 'expected a subdivision code such as BY or CA')
      .optional()
      .describe("State/region code within country whose public holidays also apply (e.g. 'BY' for Bavaria); needs country."),
  })
  .superRefine((v, ctx) => {
    const need = (ok: boolean, path: string, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    need(v.mode !== 'count' || v.end !== undefined, 'end', "end is required for mode 'count'");
    need(v.mode !== 'count' || v.days === undefined, 'days', "days is only used with mode 'add'");
    need(v.mode !== 'add' || v.days !== undefined, 'days', "days is required for mode 'add'");
    need(v.mode !== 'add' || v.end === undefined, 'end', "end is only used with mode 'count'");
    need(v.subdivision === undefined || v.country !== undefined, 'subdivision', 'subdivision needs country');
  })
  .meta({
    examples: [
      { mode: 'count', start: '2026-12-01', end: '2027-01-01', country: 'DE' },
      { mode: 'add', start: '2026-12-23', days: 3, country: 'DE', subdivision: 'BY' },
      { mode: 'add', start: '2026-06-01', days: -10, weekend: [5, 6], holidays: ['2026-05-27'] },
    ],
  });

export const businessDays = defineTool({
  name: 'business_days',
  title: 'Business-day calculator',
  ...CALCULATOR,
  description:
    'Business-day arithmetic in whole UTC calendar days. A business day is a date whose weekday is not in ' +
    '`weekend` (default Saturday+Sunday), that is not in `holidays`, and (with `country`, optionally ' +
    '`subdivision`) is not a public holiday there (date-holidays data, type "public" only). mode=count: the ' +
    'number of business days in the half-open interval [start, end) — start counts, end does not; if end < ' +
    'start the result is minus the count of [end, start). mode=add: the date that is `days` business days after ' +
    'start (before it when negative); start itself is not counted; days=0 gives start if it is a business day, ' +
    'else the next business day; the result is never a weekend day or holiday. With a country, the dates may ' +
    'span at most 400 years. Unknown country/subdivision and impossible dates (2026-02-30) answer 422. Result ' +
    'fields: `mode`; `start`; `end` (count) or `days` (add); `result` = integer count (count) or YYYY-MM-DD ' +
    '(add); `calendar_days` = end − start (count) or result − start (add) in days; `holidays_applied` = ' +
    '[{date, name}] in date order: holidays inside the range that fell on a non-weekend day and were therefore ' +
    'skipped (names joined with " / " when several; listed-only dates are named "Custom holiday"); `weekend` ' +
    '= the weekday numbers used, sorted; `country`, `subdivision` = as used, or null.',
  input: BusinessDaysInput,
  handler: async (input) => {
    // Codes are case-insensitive; normalised here, not by a zod transform, so the JSON Schema keeps its examples.
    const country = input.country?.toUpperCase();
    const subdivision = input.subdivision?.toUpperCase();
    if (country) {
      requireEngine('holidays');
      await loadHolidays();
      checkRegion(country, subdivision);
    }
    const weekend = [...new Set(input.weekend)].sort((a, b) => a - b);
    const cal = new BusinessCalendar({ weekend, holidays: input.holidays, country, subdivision });
    const start = dayNumber(input.start)!;
    const region = { weekend, country: country ?? null, subdivision: subdivision ?? null };
    if (input.mode === 'count') {
      const end = dayNumber(input.end!)!;
      if (country && Math.abs(yearOf(end) - yearOf(start)) >= MAX_COUNTRY_YEARS) {
        throw invalidInput('end', `with a country, the dates may span at most ${MAX_COUNTRY_YEARS} years`);
      }
      const { result, holidays_applied } = countBusinessDays(cal, start, end);
      return { mode: 'count', start: input.start, end: input.end, result, calendar_days: end - start, holidays_applied, ...region };
    }
    const { result, holidays_applied } = addBusinessDays(cal, start, input.days!);
    return {
      mode: 'add',
      start: input.start,
      days: input.days,
      result: isoDate(result),
      calendar_days: result - start,
      holidays_applied,
      ...region,
    };
  },
});
