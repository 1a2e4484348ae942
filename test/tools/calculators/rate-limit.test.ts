import { describe, expect, it } from 'vitest';
import { rateLimit } from '../../../tools/calculators/rate-limit.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const registry = pureRegistry([rateLimit]);

describe('rate_limit', () => {
  it.each([
    {
      name: 'needs to wait: 5 planned, 2 left',
      input: { limit: 60, window_seconds: 60, used: 58, planned_calls: 5 },
      out: { remaining: 2, burst_headroom: 0, proceed_now: false, can_ever_fit: true, wait_seconds: 3, pacing_interval_seconds: 1, refill_rate_per_second: 1, batches_needed: 1 },
    },
    {
      name: 'defaults: fresh window, one call',
      input: { limit: 100, window_seconds: 3600 },
      out: { used: 0, planned_calls: 1, remaining: 100, burst_headroom: 99, proceed_now: true, wait_seconds: 0, pacing_interval_seconds: 36, batches_needed: 1 },
    },
    {
      name: 'exactly the remaining capacity',
      input: { limit: 5, window_seconds: 10, used: 3, planned_calls: 2 },
      out: { remaining: 2, burst_headroom: 0, proceed_now: true, wait_seconds: 0, pacing_interval_seconds: 2 },
    },
    {
      name: 'more planned than the limit: never fits in one window',
      input: { limit: 10, window_seconds: 1, used: 0, planned_calls: 25 },
      out: { remaining: 10, proceed_now: false, can_ever_fit: false, wait_seconds: null, batches_needed: 3, pacing_interval_seconds: 0.1 },
    },
    {
      name: 'fractional pacing is rounded to the microsecond',
      input: { limit: 3, window_seconds: 1, used: 3, planned_calls: 1 },
      out: { remaining: 0, wait_seconds: 0.333333, pacing_interval_seconds: 0.333333 },
    },
    {
      name: 'overrun: used above the limit',
      input: { limit: 10, window_seconds: 10, used: 15, planned_calls: 1 },
      out: { remaining: 0, burst_headroom: 0, proceed_now: false, wait_seconds: 6 },
    },
    {
      name: 'large overrun: wait never exceeds one window',
      input: { limit: 10, window_seconds: 10, used: 30, planned_calls: 5 },
      out: { wait_seconds: 10 },
    },
    {
      name: 'fractional window',
      input: { limit: 4, window_seconds: 0.5, used: 4, planned_calls: 2 },
      out: { wait_seconds: 0.25, pacing_interval_seconds: 0.125, refill_rate_per_second: 8 },
    },
  ])('$name', async ({ input, out }) => {
    const r = await callTool(registry, 'rate_limit', input);
    expect(r).toMatchObject(out);
    expect(r.limit).toBe(input.limit);
    expect(typeof r.advice).toBe('string');
  });

  it('says so when planned_calls can never fit', async () => {
    const r = await callTool(registry, 'rate_limit', { limit: 10, window_seconds: 1, planned_calls: 25 });
    expect(r.advice).toMatch(/never fit/);
  });

  it.each([
    [{ limit: 0, window_seconds: 1 }, 'limit'],
    [{ limit: 1.5, window_seconds: 1 }, 'limit'],
    [{ limit: 10, window_seconds: 0 }, 'window_seconds'],
    [{ limit: 10, window_seconds: -5 }, 'window_seconds'],
    [{ limit: 10, window_seconds: 1, used: -1 }, 'used'],
    [{ limit: 10, window_seconds: 1, planned_calls: 0 }, 'planned_calls'],
    [{ limit: '10', window_seconds: 1 }, 'limit'],
    [{ window_seconds: 1 }, 'limit'],
  ])('rejects %j with 422 on %s', async (input, field) => {
    const err = await callToolError(registry, 'rate_limit', input);
    expect(err.code).toBe('validation_error');
    expect(err.status).toBe(422);
    expect(err.detail?.[0].loc).toEqual([field]);
  });

  it('marks a missing field as missing', async () => {
    const err = await callToolError(registry, 'rate_limit', { window_seconds: 1 });
    expect(err.detail?.[0].type).toBe('missing');
  });
});
