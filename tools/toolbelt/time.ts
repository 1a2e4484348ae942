// Timestamp conversion: unix seconds/ms, ISO 8601 or RFC 2822 in; every common form out, optionally in an
// IANA time zone. Parsing is done by hand because Date.parse accepts many non-standard forms and reads
// offset-less date-times in the server's zone.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { invalid, PURE, TOOLBELT_BASE } from './common.js';

const MAX_MS = 8.64e15; // the range of a JS Date
/** Below this magnitude a number is read as seconds (1e11 s is year 5138; 1e11 ms is March 1973). */
const AUTO_MS_THRESHOLD = 1e11;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const RFC2822_ZONES: Record<string, number> = { gmt: 0, ut: 0, utc: 0, z: 0, est: -5, edt: -4, cst: -6, cdt: -5, mst: -7, mdt: -6, pst: -8, pdt: -7 };

const ISO =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const RFC2822 =
  /^(?:[a-z]{3},\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s+([a-z]{1,3}|[+-]\d{4})$/i;

/** Milliseconds of a UTC wall time; setUTCFullYear because Date.UTC maps years 0–99 to 1900–1999. */
function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

const daysIn = (y: number, mo: number) => new Date(utcMs(y, mo + 1, 0)).getUTCDate();

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock parts formatter of a zone; throws 422 for a zone Intl does not know. */
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone, hourCycle: 'h23', era: 'short', weekday: 'long',
        year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      throw invalid('timezone', `Unknown time zone ${JSON.stringify(timeZone)}; use an IANA name such as "Europe/Berlin" or "UTC".`);
    }
    if (formatters.size > 200) formatters.clear();
    formatters.set(timeZone, f);
  }
  return f;
}

interface Wall { y: number; mo: number; d: number; h: number; mi: number; s: number; weekday: string }

function wallTime(ms: number, timeZone: string): Wall {
  const p: Record<string, string> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(ms))) p[part.type] = part.value;
  const y = Number(p.year);
  return {
    y: p.era === 'BC' || p.era === 'B' ? 1 - y : y,
    mo: Number(p.month), d: Number(p.day), h: Number(p.hour), mi: Number(p.minute), s: Number(p.second),
    weekday: p.weekday ?? '',
  };
}

/** Offset of a zone from UTC at an instant, in ms (east positive). */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallTime(ms, timeZone);
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return utcMs(w.y, w.mo, w.d, w.h, w.mi, w.s) - whole;
}

/**
 * The instant a wall time names in a zone, resolved like Temporal's "compatible": a time that occurs twice
 * (clocks going back) is the earlier one; a time skipped by clocks going forward moves later by the gap.
 */
function wallToInstant(wall: number, timeZone: string): number {
  const offsets = [offsetAt(wall - 86_400_000, timeZone), offsetAt(wall + 86_400_000, timeZone)];
  const valid = offsets.map((o) => wall - o).filter((t) => offsetAt(t, timeZone) === wall - t);
  if (valid.length) return Math.min(...valid);
  return wall - Math.min(...offsets);
}

/** ±hh:mm, with :ss only for historical local mean time offsets such as Berlin's +00:53:28 before 1893. */
const fmtOffset = (ms: number) => {
  const total = Math.round(Math.abs(ms) / 1000);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const secs = total % 60 ? `:${p2(total % 60)}` : '';
  return `${ms < 0 ? '-' : '+'}${p2(Math.floor(total / 3600))}:${p2(Math.floor(total / 60) % 60)}${secs}`;
};

type Reading = 'unix_seconds' | 'unix_ms' | 'iso8601' | 'rfc2822' | 'now';

function parseIso(m: RegExpExecArray, timeZone: string | undefined): number {
  const [y, mo, d, h = 0, mi = 0, s = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => (v === undefined ? undefined : Number(v)));
  if (mo! < 1 || mo! > 12) throw invalid('value', `Month ${mo} is out of range 01–12.`);
  if (d! < 1 || d! > daysIn(y!, mo!)) throw invalid('value', `Day ${d} does not exist in ${m[1]}-${m[2]}.`);
  if (h > 23 || mi > 59 || s > 59) throw invalid('value', 'Time is out of range (hours 00–23, minutes and seconds 00–59).');
  const ms = Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  const wall = utcMs(y!, mo!, d!, h, mi, s, ms);
  const zone = m[8];
  if (zone === undefined) return timeZone ? wallToInstant(wall, timeZone) : wall;
  if (zone.toUpperCase() === 'Z') return wall;
  const digits = zone.replace(':', '');
  const oh = Number(digits.slice(1, 3));
  const om = Number(digits.slice(3, 5) || '0');
  if (oh > 23 || om > 59) throw invalid('value', `Offset ${zone} is out of range.`);
  return wall - (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60000;
}

function parseRfc2822(m: RegExpExecArray): number {
  const mo = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
  const [d, y, h, mi, s] = [m[1], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number];
  if (mo === 0 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 60) throw invalid('value', 'Date or time out of range.');
  const zone = m[7]!;
  let offsetMin: number;
  if (/^[+-]/.test(zone)) offsetMin = (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
  else if (zone.toLowerCase() in RFC2822_ZONES) offsetMin = RFC2822_ZONES[zone.toLowerCase()]! * 60;
  else throw invalid('value', `Unknown RFC 2822 zone ${JSON.stringify(zone)}; use +hhmm or GMT.`);
  return utcMs(y, mo, d, h, mi, Math.min(s, 59)) - offsetMin * 60000;
}

function readValue(value: number | string | undefined, unit: string, timeZone: string | undefined, now: number): [number, Reading] {
  if (value === undefined) return [now, 'now'];
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (typeof value === 'number' || /^[+-]?\d+(?:\.\d+)?$/.test(text)) {
    const n = Number(text);
    const asMs = unit === 'milliseconds' || (unit === 'auto' && Math.abs(n) >= AUTO_MS_THRESHOLD);
    return [Math.round(asMs ? n : n * 1000), asMs ? 'unix_ms' : 'unix_seconds'];
  }
  const iso = ISO.exec(text);
  if (iso) return [parseIso(iso, timeZone), 'iso8601'];
  const rfc = RFC2822.exec(text);
  if (rfc) return [parseRfc2822(rfc), 'rfc2822'];
  throw invalid('value', 'Not a unix timestamp, ISO 8601 (e.g. 2026-11-22T09:30:00+01:00) or RFC 2822 date (e.g. Sun, 22 Nov 2026 08:30:00 GMT).');
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400], ['month', 30 * 86400], ['week', 7 * 86400], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1],
];
// Made on first use rather than by every gateway at start-up.
let relativeFormat: Intl.RelativeTimeFormat | undefined;

function humanRelative(seconds: number): string {
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return (relativeFormat ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' })).format(Math.round(seconds / size), unit);
  }
  return '';
}

export const timestampConvert = defineTool({
  ...TOOLBELT_BASE,
  name: 'timestamp_convert',
  title: 'Convert timestamps',
  description:
    'Converts a point in time between forms. value: unix seconds or milliseconds (number or digits; unit=auto ' +
    'reads |n| < 1e11 as seconds, else ms), ISO 8601 (a date or date-time without offset is read in `timezone` ' +
    'if given, else UTC), or RFC 2822 / HTTP date. Omit value for the current time. Returns {interpreted_as, ' +
    'iso (UTC), unix_seconds (floored), unix_ms, rfc2822 (IMF-fixdate, as in HTTP Date headers), day_of_week ' +
    '(UTC), relative {seconds_from_now, human}, local?} where local (with timezone) = {timezone, iso with ' +
    'offset, offset, day_of_week, display}. Unknown time zones and impossible dates answer 422.',
  input: z.object({
    value: z
      .union([z.number(), z.string().max(64)])
      .optional()
      .describe('Unix seconds/ms (number or digit string), ISO 8601 or RFC 2822 date. Omit for now.'),
    unit: z
      .enum(['auto', 'seconds', 'milliseconds'])
      .default('auto')
      .describe('For numeric values: seconds, milliseconds, or auto (default: |n| < 1e11 is seconds).'),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('IANA time zone (e.g. "America/New_York", "Asia/Kolkata", "UTC") for the local rendering.'),
  }),
  annotations: PURE,
  handler: (input, ctx) => {
    const now = ctx.clock.now();
    if (input.timezone) partsFormatter(input.timezone); // 422 for an unknown zone before anything else
    const [ms, reading] = readValue(input.value, input.unit, input.timezone, now);
    if (!Number.isFinite(ms) || Math.abs(ms) > MAX_MS) throw invalid('value', 'Out of range: dates must lie within ±8.64e15 ms of 1970.');
    const date = new Date(ms);
    const secondsFromNow = Math.round((ms - now) / 1000);
    const out: Record<string, unknown> = {
      input: input.value ?? null,
      interpreted_as: reading,
      iso: date.toISOString(),
      unix_seconds: Math.floor(ms / 1000),
      unix_ms: ms,
      rfc2822: date.toUTCString(),
      day_of_week: WEEKDAYS[date.getUTCDay()],
      relative: { seconds_from_now: secondsFromNow, human: humanRelative(secondsFromNow) },
    };
    if (input.timezone) {
      const tz = input.timezone;
      const w = wallTime(ms, tz);
      const offset = fmtOffset(offsetAt(ms, tz));
      const pad = (n: number, l = 2) => String(n).padStart(l, '0');
      const msPart = pad(((ms % 1000) + 1000) % 1000, 3);
      out.local = {
        timezone: tz,
        iso: `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}:${pad(w.s)}.${msPart}${offset}`,
        offset,
        day_of_week: w.weekday,
        display: new Intl.DateTimeFormat('en-US', { timeZone: tz, dateStyle: 'full', timeStyle: 'long' }).format(date),
      };
    }
    return out;
  },
});
