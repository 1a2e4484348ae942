// rate_limit: advice for a sliding-window limit: how much is left, how long to wait, how to pace.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { CALCULATOR } from './common.js';

export const RateLimitInput = z
  .object({
    limit: z.number().int().min(1).max(1e12).describe('Calls allowed per window (integer ≥ 1).'),
    window_seconds: z.number().positive().max(1e10).describe('Length of the sliding window in seconds (> 0, fractions allowed).'),
    used: z
      .number()
      .int()
      .min(0)
      .max(1e12)
      .default(0)
      .describe('Calls already made inside the current window (integer ≥ 0, default 0; may exceed limit after an overrun).'),
    planned_calls: z
      .number()
      .int()
      .min(1)
      .max(1e12)
      .default(1)
      .describe('Calls you want to send next, back to back (integer ≥ 1, default 1).'),
  })
  .meta({
    examples: [
      { limit: 60, window_seconds: 60, used: 58, planned_calls: 5 },
      { limit: 100, window_seconds: 3600 },
      { limit: 10, window_seconds: 1, used: 0, planned_calls: 25 },
    ],
  });

export interface RateLimitAdvice {
  limit: number;
  window_seconds: number;
  used: number;
  planned_calls: number;
  remaining: number;
  burst_headroom: number;
  proceed_now: boolean;
  can_ever_fit: boolean;
  wait_seconds: number | null;
  refill_rate_per_second: number;
  pacing_interval_seconds: number;
  batches_needed: number;
  advice: string;
}

/** Seconds rounded to the microsecond, so binary float noise (0.30000000000000004) does not leak out. */
const micro = (s: number): number => Math.round(s * 1e6) / 1e6;

export function rateLimitAdvice(limit: number, windowSeconds: number, used = 0, planned = 1): RateLimitAdvice {
  const remaining = Math.max(0, limit - used);
  const canEverFit = planned <= limit;
  const proceedNow = planned <= remaining;
  // Used calls are spread evenly over the window, so capacity comes back at limit/window_seconds per second;
  // all of them have left the window after window_seconds at the latest (this only binds when used > limit).
  const deficit = Math.max(0, used + planned - limit);
  const wait = canEverFit ? micro(Math.min(windowSeconds, (deficit * windowSeconds) / limit)) : null;
  const pacing = micro(windowSeconds / limit);
  const batches = Math.ceil(planned / limit);
  let advice: string;
  if (!canEverFit) {
    advice =
      `planned_calls (${planned}) exceeds limit (${limit}): they can never fit in one window. ` +
      `Split them into ${batches} batches of at most ${limit}, or send one call every ${pacing} s.`;
  } else if (proceedNow) {
    advice = `Proceed now: ${planned} of ${remaining} remaining calls fit; ${remaining - planned} stay free for bursts.`;
  } else {
    advice = `Wait ${wait} s before sending ${planned} calls, or send one call every ${pacing} s.`;
  }
  return {
    limit,
    window_seconds: windowSeconds,
    used,
    planned_calls: planned,
    remaining,
    burst_headroom: Math.max(0, remaining - planned),
    proceed_now: proceedNow,
    can_ever_fit: canEverFit,
    wait_seconds: wait,
    refill_rate_per_second: limit / windowSeconds,
    pacing_interval_seconds: pacing,
    batches_needed: batches,
    advice,
  };
}

export const rateLimit = defineTool({
  name: 'rate_limit',
  title: 'Rate-limit advisor',
  ...CALCULATOR,
  description:
    'Sliding-window rate-limit advisor: given `limit` calls per `window_seconds` and `used` calls already in the ' +
    'current window, says whether `planned_calls` can go now and otherwise how long to wait. Model: the used ' +
    'calls are assumed to be spread evenly across the window, so capacity frees at limit/window_seconds calls per ' +
    'second. Result fields: `remaining` = max(0, limit − used), calls that may be sent right now; ' +
    '`burst_headroom` = max(0, remaining − planned_calls), calls still free after sending the planned ones now; ' +
    '`proceed_now` = planned_calls ≤ remaining; `can_ever_fit` = planned_calls ≤ limit (false: they never fit ' +
    'in one window, whatever you wait); `wait_seconds` = min(window_seconds, max(0, used + planned_calls − limit) ' +
    '× window_seconds / limit), 0 when proceed_now, null when can_ever_fit is false; `refill_rate_per_second` = ' +
    'limit / window_seconds; `pacing_interval_seconds` = window_seconds / limit, the steady spacing that never ' +
    'exceeds the limit; `batches_needed` = ceil(planned_calls / limit), windows needed for all planned calls; ' +
    '`advice` = one sentence saying what to do. The inputs are echoed (`limit`, `window_seconds`, `used`, ' +
    '`planned_calls`, defaults filled in). wait_seconds and pacing_interval_seconds are rounded to the microsecond.',
  input: RateLimitInput,
  handler: (input) => rateLimitAdvice(input.limit, input.window_seconds, input.used, input.planned_calls),
});
