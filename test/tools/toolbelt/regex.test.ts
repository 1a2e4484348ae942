import { describe, expect, it } from 'vitest';
import { toolbeltTools } from '../../../tools/toolbelt/index.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const reg = pureRegistry(toolbeltTools);
const test = (input: Record<string, unknown>) => callTool(reg, 'regex_test', input);

describe('regex_test', () => {
  it('returns every match with indices and numbered and named groups under g', async () => {
    const out = await test({ pattern: '(\\d+)-(?<word>\\w+)?', flags: 'g', text: '12-ab 34- x' });
    expect(out).toEqual({
      pattern: '(\\d+)-(?<word>\\w+)?',
      flags: 'g',
      matched: true,
      match_count: 2,
      truncated: false,
      matches: [
        { match: '12-ab', index: 0, end: 5, groups: ['12', 'ab'], group_indices: [[0, 2], [3, 5]], named_groups: { word: 'ab' } },
        { match: '34-', index: 6, end: 9, groups: ['34', null], group_indices: [[6, 8], null], named_groups: { word: null } },
      ],
    });
  });

  it('returns only the first match without g', async () => {
    const out = await test({ pattern: 'o', text: 'foo boo' });
    expect(out.match_count).toBe(1);
    expect(out.matches[0]).toEqual({ match: 'o', index: 1, end: 2, groups: [], group_indices: [], named_groups: null });
  });

  it('applies flags (i, m, s, u, y) and reports no match plainly', async () => {
    expect((await test({ pattern: '^b', flags: 'gim', text: 'a\nB\nb' })).match_count).toBe(2);
    expect((await test({ pattern: 'a.b', flags: 's', text: 'a\nb' })).matched).toBe(true);
    expect((await test({ pattern: '\\p{Lu}', flags: 'gu', text: 'aÉb' })).matches[0].match).toBe('É');
    expect((await test({ pattern: 'b', flags: 'y', text: 'ab' })).matched).toBe(false);
    expect(await test({ pattern: 'z', text: 'abc' })).toMatchObject({ matched: false, match_count: 0, matches: [] });
    expect((await test({ pattern: 'a', flags: 'dg', text: 'aa' })).flags).toBe('dg');
  });

  it('caps the number of matches, also for empty matches', async () => {
    const out = await test({ pattern: '', flags: 'g', text: 'abc', max_matches: '2' });
    expect(out).toMatchObject({ match_count: 2, truncated: true });
    const all = await test({ pattern: '\\w', flags: 'g', text: 'a'.repeat(500) });
    expect(all).toMatchObject({ match_count: 100, truncated: true });
  });

  it('stops when captured text would exceed the output budget', async () => {
    const out = await test({ pattern: '(?=(.*))', flags: 'g', text: 'x'.repeat(100_000), max_matches: 1000 });
    expect(out.truncated).toBe(true);
    expect(out.match_count).toBeLessThan(20);
  });

  it('answers 422 with the engine message for an invalid pattern or flags', async () => {
    const cases: [Record<string, unknown>, RegExp, string][] = [
      [{ pattern: '(', text: 'x' }, /Invalid regular expression: \/\(\/: Unterminated group/, 'pattern'],
      [{ pattern: 'a', flags: 'gg', text: 'x' }, /Invalid flags/, 'flags'],
      [{ pattern: 'a', flags: 'uv', text: 'x' }, /Invalid flags/, 'flags'],
      [{ pattern: 'a', flags: 'x', text: 'x' }, /Flags may only be/, 'flags'],
    ];
    for (const [input, message, field] of cases) {
      const err = await callToolError(reg, 'regex_test', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
      expect(err.message).toMatch(message);
      expect(err.detail?.[0]?.loc).toEqual([field]);
    }
  });

  it('caps pattern and text length', async () => {
    for (const input of [
      { pattern: 'a'.repeat(1001), text: 'x' },
      { pattern: 'a', text: 'x'.repeat(100 * 1024 + 1) },
      { pattern: 'a', text: 'x', max_matches: 1001 },
    ]) {
      const err = await callToolError(reg, 'regex_test', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
    }
  });

  it('stops catastrophic backtracking within ~1 s with a 422 marked timed_out', async () => {
    const started = performance.now();
    const err = await callToolError(reg, 'regex_test', { pattern: '(a+)+$', text: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(1000);
    expect(err.code).toBe('validation_error');
    expect(err.status).toBe(422);
    expect(err.extra).toMatchObject({ timed_out: true, timeout_ms: 100 });
    expect(err.message).toMatch(/catastrophic backtracking/);
    // The server is still responsive afterwards.
    expect((await test({ pattern: 'a+', text: 'baaa' })).matches[0].match).toBe('aaa');
  });

  it('also stops a slow global scan over the full 100 KB text', async () => {
    const started = performance.now();
    const err = await callToolError(reg, 'regex_test', { pattern: '(x|x)*y', flags: 'g', text: 'x'.repeat(100_000) });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(err.extra.timed_out).toBe(true);
  });
});
