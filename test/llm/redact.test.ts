// Card numbers masked in what the conversational surfaces store: the digit count short-cut must not let one
// through, and what holds none comes back as it was.
import { describe, expect, it } from 'vitest';
import { maskCardNumbers, maskCardNumbersDeep } from '../../src/llm/redact.js';

describe('card number masking', () => {
  it('masks Luhn-valid runs of 12–19 digits, with spaces or dashes, and leaves other numbers', () => {
    expect(maskCardNumbers('pay with 4111 1111 1111 1111 now')).toBe('pay with 411111••••••1111 now');
    expect(maskCardNumbers('5500-0000-0000-0004')).toBe('550000••••••0004');
    expect(maskCardNumbers('4111111111111112')).toBe('4111111111111112'); // fails Luhn
    expect(maskCardNumbers('order 12345678901 of 2026')).toBe('order 12345678901 of 2026'); // 15 digits, no run of 12
    expect(maskCardNumbers('call 555 0100')).toBe('call 555 0100');
  });

  it('masks every string inside a JSON value, "__proto__" keys included', () => {
    const v = JSON.parse('{"a":[{"card":"4111111111111111"},"x"],"__proto__":{"n":"5500 0000 0000 0004"},"k":3}');
    const masked = maskCardNumbersDeep(v) as Record<string, unknown>;
    expect(JSON.stringify(masked)).toBe('{"a":[{"card":"411111••••••1111"},"x"],"__proto__":{"n":"550000••••••0004"},"k":3}');
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    // The input is not changed.
    expect(JSON.stringify(v)).toContain('4111111111111111');
  });

  it('returns a value holding no card number as it is', () => {
    const v = { tool: 'base64', arguments: { action: 'encode', text: 'hello 123' }, list: [1, 'two', null] };
    expect(maskCardNumbersDeep(v)).toBe(v);
  });
});
