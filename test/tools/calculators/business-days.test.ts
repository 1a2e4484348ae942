import { describe, expect, it } from 'vitest';
import { businessDays } from '../../../tools/calculators/business-days.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const registry = pureRegistry([businessDays]);
const call = (input: Record<string, unknown>) => callTool(registry, 'business_days', input);

describe('business_days count', () => {
  it.each([
    {
      name: 'December 2026 in Germany: Christmas Day skipped, Boxing Day is a Saturday',
      input: { start: '2026-12-01', end: '2027-01-01', country: 'DE' },
      result: 22,
      applied: [{ date: '2026-12-25', name: 'Christmas Day' }],
    },
    {
      name: 'German Unity Day 2026 falls on a Saturday, so nothing is skipped',
      input: { start: '2026-10-01', end: '2026-10-08', country: 'DE' },
      result: 5,
      applied: [],
    },
    {
      name: 'end before start gives a negative count',
      input: { start: '2027-01-01', end: '2026-12-01', country: 'DE' },
      result: -22,
      applied: [{ date: '2026-12-25', name: 'Christmas Day' }],
    },
    { name: 'empty interval', input: { start: '2026-03-02', end: '2026-03-02' }, result: 0, applied: [] },
    { name: 'half-open: Monday to next Monday', input: { start: '2026-01-05', end: '2026-01-12' }, result: 5, applied: [] },
    { name: 'a weekend alone', input: { start: '2026-01-10', end: '2026-01-12' }, result: 0, applied: [] },
    {
      name: 'subdivision adds its own holidays (Corpus Christi in Bavaria)',
      input: { start: '2026-06-01', end: '2026-06-08', country: 'DE', subdivision: 'BY' },
      result: 4,
      applied: [{ date: '2026-06-04', name: 'Corpus Christi' }],
    },
    { name: 'without the subdivision Corpus Christi is a working day', input: { start: '2026-06-01', end: '2026-06-08', country: 'DE' }, result: 5, applied: [] },
    {
      name: 'US substitute holiday for Independence Day',
      input: { start: '2026-06-29', end: '2026-07-06', country: 'us' },
      result: 4,
      applied: [{ date: '2026-07-03', name: 'Independence Day (substitute day)' }],
    },
    {
      name: 'multi-day public holidays count every day (Eid al-Adha in the UAE)',
      input: { start: '2026-05-25', end: '2026-06-01', country: 'AE' },
      result: 2,
      applied: ['2026-05-27', '2026-05-28', '2026-05-29'].map((date) => ({ date, name: 'Feast of the Sacrifice (Eid al-Adha)' })),
    },
    {
      name: 'custom holidays merge with country holidays',
      input: { start: '2026-12-21', end: '2026-12-28', country: 'DE', holidays: ['2026-12-24', '2026-12-25', '2026-12-26'] },
      result: 3,
      applied: [
        { date: '2026-12-24', name: 'Custom holiday' },
        { date: '2026-12-25', name: 'Christmas Day' },
      ],
    },
    {
      name: 'custom weekend (Friday + Saturday)',
      input: { start: '2026-01-04', end: '2026-01-11', weekend: [5, 6] },
      result: 5,
      applied: [],
    },
    { name: 'no weekend at all', input: { start: '2026-01-01', end: '2026-02-01', weekend: [] }, result: 31, applied: [] },
    { name: 'whole supported range', input: { start: '1000-01-01', end: '9999-12-31' }, result: 2_347_987, applied: [] },
  ])('$name', async ({ input, result, applied }) => {
    const r = await call({ mode: 'count', ...input });
    expect(r.result).toBe(result);
    expect(r.holidays_applied).toEqual(applied);
    expect(r.mode).toBe('count');
  });

  it('echoes the calendar used', async () => {
    const r = await call({ mode: 'count', start: '2026-12-01', end: '2027-01-01', country: 'de', subdivision: 'by', weekend: [6, 0, 6] });
    expect(r).toMatchObject({ start: '2026-12-01', end: '2027-01-01', calendar_days: 31, weekend: [0, 6], country: 'DE', subdivision: 'BY' });
  });

  it('Bavaria has 252 business days in 2026', async () => {
    const r = await call({ mode: 'count', start: '2026-01-01', end: '2027-01-01', country: 'DE', subdivision: 'BY' });
    expect(r.result).toBe(252);
    expect(r.holidays_applied.map((h: { date: string }) => h.date)).toEqual([
      '2026-01-01', '2026-01-06', '2026-04-03', '2026-04-06', '2026-05-01', '2026-05-14', '2026-05-25', '2026-06-04', '2026-12-25',
    ]);
  });
});

describe('business_days add', () => {
  it.each([
    { name: 'over Christmas in Germany', input: { start: '2026-12-23', days: 3, country: 'DE' }, result: '2026-12-29', applied: ['2026-12-25'] },
    { name: 'backwards over Christmas', input: { start: '2026-12-29', days: -3, country: 'DE' }, result: '2026-12-23', applied: ['2026-12-25'] },
    { name: 'Friday + 1 is Monday', input: { start: '2026-01-09', days: 1 }, result: '2026-01-12', applied: [] },
    { name: 'Monday − 1 is Friday', input: { start: '2026-01-12', days: -1 }, result: '2026-01-09', applied: [] },
    { name: 'from a Saturday, +1 is Monday', input: { start: '2026-01-10', days: 1 }, result: '2026-01-12', applied: [] },
    { name: 'days=0 on a business day returns start', input: { start: '2026-01-07', days: 0 }, result: '2026-01-07', applied: [] },
    { name: 'days=0 on a Saturday holiday moves to Monday', input: { start: '2026-10-03', days: 0, country: 'DE' }, result: '2026-10-05', applied: [] },
    { name: 'days=0 on a weekday holiday', input: { start: '2026-12-25', days: 0, country: 'DE' }, result: '2026-12-28', applied: ['2026-12-25'] },
    {
      name: 'custom weekend and custom holiday, backwards',
      input: { start: '2026-06-01', days: -10, weekend: [5, 6], holidays: ['2026-05-27'] },
      result: '2026-05-17',
      applied: ['2026-05-27'],
    },
    { name: 'across a year boundary', input: { start: '2026-12-31', days: 1, country: 'DE' }, result: '2027-01-04', applied: ['2027-01-01'] },
    { name: '+100000 business days', input: { start: '2026-01-01', days: 100_000 }, result: '2409-04-23', applied: [] },
    { name: '−100000 business days', input: { start: '2026-01-01', days: -100_000 }, result: '1642-09-11', applied: [] },
    { name: 'one working day a week (Friday)', input: { start: '2026-01-01', days: 100_000, weekend: [0, 1, 2, 3, 4, 6] }, result: '3942-07-10', applied: [] },
  ])('$name', async ({ input, result, applied }) => {
    const r = await call({ mode: 'add', ...input });
    expect(r.result).toBe(result);
    expect(r.holidays_applied.map((h: { date: string }) => h.date)).toEqual(applied);
    expect(r.days).toBe(input.days);
  });

  it('never lands on a weekend or holiday', async () => {
    for (let days = -15; days <= 15; days++) {
      const r = await call({ mode: 'add', start: '2026-12-20', days, country: 'DE', holidays: ['2026-12-24', '2026-12-31'] });
      const wd = new Date(`${r.result}T00:00:00Z`).getUTCDay();
      expect(wd === 0 || wd === 6).toBe(false);
      expect(['2026-12-24', '2026-12-25', '2026-12-31', '2027-01-01']).not.toContain(r.result);
    }
  });

  it('reports calendar_days', async () => {
    const r = await call({ mode: 'add', start: '2026-12-23', days: 3, country: 'DE' });
    expect(r.calendar_days).toBe(6);
  });
});

describe('business_days errors', () => {
  it.each([
    [{ mode: 'count', start: '2026-02-30', end: '2026-03-01' }, 'start', /does not exist/],
    [{ mode: 'count', start: '2026-2-3', end: '2026-03-01' }, 'start', /YYYY-MM-DD/],
    [{ mode: 'count', start: '2026-01-01', end: '2026-13-01' }, 'end', /does not exist/],
    [{ mode: 'count', start: '0999-12-31', end: '2026-01-01' }, 'start', /year must be 1000–9999/],
    [{ mode: 'count', start: '0050-01-01', end: '2026-01-01' }, 'start', /year must be 1000–9999/],
    [{ mode: 'count', start: '2025-02-29', end: '2026-01-01' }, 'start', /does not exist/],
    [{ mode: 'count', start: '2026-01-01' }, 'end', /end is required/],
    [{ mode: 'count', start: '2026-01-01', end: '2026-02-01', days: 3 }, 'days', /only used with mode 'add'/],
    [{ mode: 'add', start: '2026-01-01' }, 'days', /days is required/],
    [{ mode: 'add', start: '2026-01-01', days: 1, end: '2026-02-01' }, 'end', /only used with mode 'count'/],
    [{ mode: 'add', start: '2026-01-01', days: 100_001 }, 'days', /.+/],
    [{ mode: 'add', start: '2026-01-01', days: 1.5 }, 'days', /.+/],
    [{ mode: 'add', start: '2026-01-01', days: 1, weekend: [0, 1, 2, 3, 4, 5, 6] }, 'weekend', /at least one working weekday/],
    [{ mode: 'add', start: '2026-01-01', days: 1, weekend: [7] }, 'weekend', /.+/],
    [{ mode: 'add', start: '2026-01-01', days: 1, holidays: ['2026-02-29'] }, 'holidays', /does not exist/],
    [{ mode: 'add', start: '2026-01-01', days: 1, country: 'XX' }, 'country', /unknown country code 'XX'/],
    [{ mode: 'add', start: '2026-01-01', days: 1, country: 'DEU' }, 'country', /alpha-2/],
    [{ mode: 'add', start: '2026-01-01', days: 1, country: 'DE', subdivision: 'ZZ' }, 'subdivision', /unknown subdivision 'ZZ' for DE/],
    [{ mode: 'add', start: '2026-01-01', days: 1, subdivision: 'BY' }, 'subdivision', /needs country/],
    [{ mode: 'count', start: '2000-01-01', end: '2400-01-01', country: 'DE' }, 'end', /at most 400 years/],
    [{ mode: 'add', start: '2026-01-01', days: -100_000, weekend: [0, 1, 2, 3, 4, 6] }, 'days', /outside the supported years/],
    [{ mode: 'add', start: '9999-12-31', days: 1 }, 'days', /outside the supported years/],
    [{ mode: 'sum', start: '2026-01-01', days: 1 }, 'mode', /.+/],
  ])('rejects %j on %s', async (input, field, msg) => {
    const err = await callToolError(registry, 'business_days', input);
    expect(err.status).toBe(422);
    expect(err.code).toBe('validation_error');
    const item = err.detail?.find((d) => d.loc[0] === field);
    expect(item, JSON.stringify(err.detail)).toBeDefined();
    expect(item!.msg).toMatch(msg);
  });
});
