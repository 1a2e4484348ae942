// The coach's ranking rules on their own: each rule, their order, the goal's boost and the cap.
import { describe, expect, it } from 'vitest';
import { MAX_ACTIONS, plainText, rankActions } from '../../tools/verbs/coach-rules.js';
import type { CoachState } from '../../tools/verbs/coach-state.js';

const base: CoachState = {
  handle: 'ada',
  bio: '',
  xp: 0,
  memory: { entries: 5, namespaces: 1, max_entries: 100 },
  storage: { used_bytes: 10_000, limit_bytes: 2 * 1024 ** 3 },
  streak: { streak: 3, beat_today: true },
  unread_notifications: 0,
  watches: [],
  open_jobs: [],
  key_quota: null,
  credits: 0,
};
const tools = (s: Partial<CoachState>, goal?: string) => rankActions({ ...base, ...s }, goal).map((a) => a.tool);

describe('coach rules', () => {
  it('with nothing pending, suggests resuming from the context card', () => {
    expect(rankActions(base)).toEqual([{ tool: 'memory', arguments: { action: 'context' }, why: expect.any(String) }]);
    expect(rankActions(base, 'ship it')[0].arguments).toEqual({ action: 'context', q: 'ship it' });
  });

  it('orders the rules by their scores and keeps at most MAX_ACTIONS', () => {
    const busy: Partial<CoachState> = {
      unread_notifications: 2,
      open_jobs: [{ job_id: 'job_1', type: 'delay', status: 'queued' }],
      watches: [{ watch_id: 'w_1', status: 'paused' }],
      key_quota: { used: 9000, limit: 10000 },
      streak: { streak: 3, beat_today: false },
    };
    expect(tools(busy)).toEqual(['notifications_list', 'job_get', 'watch_renew'].slice(0, MAX_ACTIONS));
    expect(tools({ ...busy, unread_notifications: 0, open_jobs: [], watches: [] })).toEqual(['keys_usage', 'beat', 'memory']);
  });

  it('a goal lifts the rules of its topic', () => {
    const s: Partial<CoachState> = { unread_notifications: 1, watches: [{ watch_id: 'w_1', status: 'expired' }] };
    expect(tools(s)[0]).toBe('notifications_list');
    expect(tools(s, 'monitor the pricing page')[0]).toBe('watch_renew');
  });

  it('empty and nearly full memory have their own advice', () => {
    expect(rankActions({ ...base, memory: { entries: 0, namespaces: 0, max_entries: 100 } }, 'learn Rust')[0]).toMatchObject({
      tool: 'memory',
      arguments: { action: 'put', namespace: 'notes', key: 'goal', value: 'learn Rust' },
    });
    expect(tools({ memory: { entries: 90, namespaces: 3, max_entries: 100 } })[0]).toBe('memory_stats');
  });

  it('a storage budget 80 % used has its advice, ahead of the memory rules and only once', () => {
    const nearlyFull = { used_bytes: Math.ceil(0.8 * 2 * 1024 ** 3), limit_bytes: 2 * 1024 ** 3 };
    const advice = rankActions({ ...base, storage: nearlyFull });
    expect(advice[0]).toMatchObject({ tool: 'memory_stats', arguments: {}, why: expect.stringContaining('1.6 GiB of the 2.0 GiB') });
    // Full memory entries too: one memory_stats action, not two.
    expect(tools({ storage: nearlyFull, memory: { entries: 90, namespaces: 3, max_entries: 100 } }).filter((t) => t === 'memory_stats')).toHaveLength(1);
    // Just under the line, nothing about storage.
    expect(tools({ storage: { used_bytes: nearlyFull.used_bytes - 2, limit_bytes: nearlyFull.limit_bytes } })).not.toContain('memory_stats');
    // A key quota outranks it; a goal about space lifts it back.
    const quota = { key_quota: { used: 900, limit: 1000 }, storage: nearlyFull };
    expect(tools(quota)[0]).toBe('keys_usage');
    expect(tools(quota, 'free up some storage space')[0]).toBe('memory_stats');
  });

  it('keeps a streak, or starts one', () => {
    expect(rankActions({ ...base, streak: { streak: 4, beat_today: false } })[0]).toMatchObject({ tool: 'beat', arguments: { handle: 'ada' }, why: expect.stringContaining('4-day') });
    expect(rankActions({ ...base, streak: null })[0].why).toContain('start a streak');
  });

  it('is deterministic and says it in plain lines', () => {
    const s: Partial<CoachState> = { unread_notifications: 1, streak: null };
    expect(rankActions({ ...base, ...s })).toEqual(rankActions({ ...base, ...s }));
    expect(plainText(rankActions({ ...base, ...s }))).toMatch(/^1\. 1 unread notification: .*Call notifications_list \{"unread_only":true\}\.\n2\. /);
    expect(plainText([])).toBe('Nothing needs you right now.');
  });
});
