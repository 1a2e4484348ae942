// depthWithin: the nesting of a parsed value, measured without recursing, so a value far deeper than the stack
// allows is measured (and refused) like any other.
import { describe, expect, it } from 'vitest';
import { assertDepth, depthWithin, JsonTooDeepError, parseJsonWithin } from '../../src/json-depth.js';

const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('depthWithin', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(depthWithin(1, 5)).toBe(0);
    expect(depthWithin(null, 5)).toBe(0);
    expect(depthWithin({}, 5)).toBe(1);
    expect(depthWithin([1, 'a', null], 5)).toBe(1);
    expect(depthWithin({ a: [{ b: 1 }], c: {} }, 5)).toBe(3);
  });

  it('answers null past the bound, at the bound the depth', () => {
    expect(depthWithin(JSON.parse(arrays(8)), 8)).toBe(8);
    expect(depthWithin(JSON.parse(arrays(9)), 8)).toBeNull();
    // The deepest branch counts, wherever it is among wide siblings.
    const wide = Array.from({ length: 10_000 }, (_, i) => (i === 9_999 ? JSON.parse(arrays(9)) : i));
    expect(depthWithin(wide, 9)).toBeNull();
    expect(depthWithin(wide, 10)).toBe(10);
  });

  it('measures a value 200,000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse(arrays(200_000));
    expect(depthWithin(deep, 64)).toBeNull();
    expect(() => assertDepth(deep, 64)).toThrow(JsonTooDeepError);
    expect(() => parseJsonWithin(arrays(65), 64)).toThrow('nests deeper than 64 levels');
    expect(parseJsonWithin('{"a":[1]}', 64)).toEqual({ a: [1] });
    expect(() => parseJsonWithin('{', 64)).toThrow(SyntaxError);
  });
});
