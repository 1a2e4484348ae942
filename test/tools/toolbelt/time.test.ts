import { describe, expect, it } from 'vitest';
import { toolbeltTools } from '../../../tools/toolbelt/index.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

// pureRegistry's clock stands at 2026-11-22T00:00:00Z (a Sunday).
const reg = pureRegistry(toolbeltTools);
const convert = (input: Record<string, unknown>) => callTool(reg, 'timestamp_convert', input);

describe('timestamp_convert', () => {
  it('uses the context clock when no value is given', async () => {
    expect(await convert({})).toEqual({
      input: null,
      interpreted_as: 'now',
      iso: '2026-11-22T00:00:00.000Z',
      unix_seconds: 1795305600,
      unix_ms: 1795305600000,
      rfc2822: 'Sun, 22 Nov 2026 00:00:00 GMT',
      day_of_week: 'Sunday',
      relative: { seconds_from_now: 0, human: 'now' },
    });
  });

  it('reads unix seconds and milliseconds (auto and explicit)', async () => {
    const s = await convert({ value: 1700000000 });
    expect(s).toMatchObject({ interpreted_as: 'unix_seconds', iso: '2023-11-14T22:13:20.000Z', day_of_week: 'Tuesday', unix_ms: 1700000000000 });
    expect(s.relative.human).toBe('3 years ago');
    const ms = await convert({ value: '1700000000123' });
    expect(ms).toMatchObject({ interpreted_as: 'unix_ms', iso: '2023-11-14T22:13:20.123Z', unix_seconds: 1700000000 });
    const forced = await convert({ value: '86400000', unit: 'milliseconds' });
    expect(forced.iso).toBe('1970-01-02T00:00:00.000Z');
    expect((await convert({ value: -1.5 })).unix_seconds).toBe(-2);
  });

  it('reads ISO 8601 with offsets, fractions and date-only forms', async () => {
    expect((await convert({ value: '2024-02-29T12:30:00+05:30' })).iso).toBe('2024-02-29T07:00:00.000Z');
    expect((await convert({ value: '2024-02-29T12:30:00.123456Z' })).iso).toBe('2024-02-29T12:30:00.123Z');
    expect((await convert({ value: '2024-02-29' })).iso).toBe('2024-02-29T00:00:00.000Z');
    expect((await convert({ value: '2024-02-29 12:30' })).iso).toBe('2024-02-29T12:30:00.000Z');
    expect((await convert({ value: '0050-06-01T00:00:00Z' })).iso).toBe('0050-06-01T00:00:00.000Z');
  });

  it('reads RFC 2822 / HTTP dates', async () => {
    const out = await convert({ value: 'Sun, 06 Nov 1994 08:49:37 GMT' });
    expect(out).toMatchObject({ interpreted_as: 'rfc2822', unix_seconds: 784111777, rfc2822: 'Sun, 06 Nov 1994 08:49:37 GMT' });
    expect((await convert({ value: '6 Nov 1994 03:49:37 -0500' })).unix_seconds).toBe(784111777);
  });

  it('renders local time in an IANA zone, DST-aware', async () => {
    const winter = await convert({ value: 1700000000, timezone: 'America/New_York' });
    expect(winter.local).toMatchObject({
      timezone: 'America/New_York',
      iso: '2023-11-14T17:13:20.000-05:00',
      offset: '-05:00',
      day_of_week: 'Tuesday',
    });
    // ICU versions differ in the space before PM (U+0020 or U+202F).
    expect(winter.local.display).toMatch(/^Tuesday, November 14, 2023 at 5:13:20\sPM EST$/);
    const summer = await convert({ value: '2024-07-04T16:00:00Z', timezone: 'America/New_York' });
    expect(summer.local.iso).toBe('2024-07-04T12:00:00.000-04:00');
    const india = await convert({ value: '2024-06-30T18:30:00Z', timezone: 'Asia/Kolkata' });
    expect(india.local).toMatchObject({ iso: '2024-07-01T00:00:00.000+05:30', day_of_week: 'Monday' });
  });

  it('reads offset-less times in the given zone (gaps move forward, overlaps take the first)', async () => {
    expect((await convert({ value: '2024-07-01', timezone: 'Asia/Kolkata' })).iso).toBe('2024-06-30T18:30:00.000Z');
    expect((await convert({ value: '2024-03-10T02:30:00', timezone: 'America/New_York' })).iso).toBe('2024-03-10T07:30:00.000Z');
    expect((await convert({ value: '2024-11-03T01:30:00', timezone: 'America/New_York' })).iso).toBe('2024-11-03T05:30:00.000Z');
    // An explicit offset wins over the zone.
    expect((await convert({ value: '2024-07-01T00:00:00Z', timezone: 'Asia/Tokyo' })).iso).toBe('2024-07-01T00:00:00.000Z');
  });

  it('describes the future relative to the clock', async () => {
    const out = await convert({ value: '2026-11-25T00:00:00Z' });
    expect(out.relative).toEqual({ seconds_from_now: 3 * 86400, human: 'in 3 days' });
  });

  it('answers 422 for unknown zones, impossible dates and unreadable values', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ timezone: 'Mars/Olympus_Mons' }, /Unknown time zone/],
      [{ value: '2023-02-29' }, /Day 29 does not exist/],
      [{ value: '2024-13-01' }, /Month 13/],
      [{ value: '2024-01-01T24:00:00Z' }, /out of range/],
      [{ value: 'tomorrow' }, /Not a unix timestamp/],
      [{ value: '1e12' }, /Not a unix timestamp/],
      [{ value: 9e15, unit: 'milliseconds' }, /Out of range/],
      [{ value: '2024-01-01', unit: 'weeks' }, /./],
    ];
    for (const [input, message] of cases) {
      const err = await callToolError(reg, 'timestamp_convert', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
      expect(err.message).toMatch(message);
    }
  });
});
