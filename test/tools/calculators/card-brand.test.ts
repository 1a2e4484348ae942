import { describe, expect, it } from 'vitest';
import { cardBrandTool } from '../../../tools/calculators/card-brand.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const registry = pureRegistry([cardBrandTool]);
const digitsOf = (s: string) => s.replace(/\D/g, '');

describe('card_brand', () => {
  it.each([
    // Published test numbers, plus boundary prefixes of each range.
    ['4111111111111111', 'visa', [13, 16, 19]],
    ['4012888888881881', 'visa', [13, 16, 19]],
    ['4222222222222', 'visa', [13, 16, 19]],
    ['5555555555554444', 'mastercard', [16]],
    ['2223003122003222', 'mastercard', [16]],
    ['2221000000000009', 'mastercard', [16]],
    ['2720990000000007', 'mastercard', [16]],
    ['378282246310005', 'american_express', [15]],
    ['371449635398431', 'american_express', [15]],
    ['6011111111111117', 'discover', [16, 17, 18, 19]],
    ['6450000000000002', 'discover', [16, 17, 18, 19]],
    ['6500000000000002', 'discover', [16, 17, 18, 19]],
    ['6221260000000000', 'discover', [16, 17, 18, 19]],
    ['6229250000000003', 'discover', [16, 17, 18, 19]],
    ['3566002020360505', 'jcb', [16, 17, 18, 19]],
    ['3528000000000007', 'jcb', [16, 17, 18, 19]],
    ['3589000000000003', 'jcb', [16, 17, 18, 19]],
    ['30569309025904', 'diners_club', [14, 15, 16, 17, 18, 19]],
    ['30500000000003', 'diners_club', [14, 15, 16, 17, 18, 19]],
    ['36000000000008', 'diners_club', [14, 15, 16, 17, 18, 19]],
    ['6200000000000005', 'unionpay', [16, 17, 18, 19]],
    ['6229260000000002', 'unionpay', [16, 17, 18, 19]],
    ['501800000009', 'maestro', [12, 13, 14, 15, 16, 17, 18, 19]],
    ['6304000000000000', 'maestro', [12, 13, 14, 15, 16, 17, 18, 19]],
    ['6761000000000006', 'maestro', [12, 13, 14, 15, 16, 17, 18, 19]],
    ['5893000000000000003', 'maestro', [12, 13, 14, 15, 16, 17, 18, 19]],
    ['2200000000000004', 'mir', [16, 17, 18, 19]],
  ])('%s is a valid %s card', async (number, brand, lengths) => {
    const r = await callTool(registry, 'card_brand', { number });
    expect(r).toMatchObject({
      brand,
      length: number.length,
      expected_lengths: lengths,
      length_valid: true,
      luhn_valid: true,
      valid: true,
      check_digit: number.at(-1),
    });
  });

  it.each([
    {
      name: 'bad Luhn',
      number: '4111111111111112',
      out: { brand: 'visa', luhn_valid: false, length_valid: true, valid: false, check_digit: '1' },
    },
    {
      name: 'UnionPay does not require Luhn',
      number: '6200000000000001',
      out: { brand: 'unionpay', brand_name: 'UnionPay', luhn_valid: false, luhn_required: false, valid: true, check_digit: '5' },
    },
    {
      name: 'Visa of a length Visa does not issue',
      number: '411111111111111',
      out: { brand: 'visa', length_valid: false, valid: false },
    },
    {
      name: 'Amex with 16 digits',
      number: '3782822463100050',
      out: { brand: 'american_express', brand_name: 'American Express', length_valid: false, valid: false },
    },
    {
      name: 'unknown prefix',
      number: '9999999999999995',
      out: { brand: 'unknown', brand_name: 'Unknown', expected_lengths: [], length_valid: false, luhn_valid: true, valid: false },
    },
    {
      name: 'separators are ignored',
      number: '4111-1111 1111-1111',
      out: { brand: 'visa', valid: true, length: 16 },
    },
  ])('$name', async ({ number, out }) => {
    expect(await callTool(registry, 'card_brand', { number })).toMatchObject(out);
  });

  it.each([
    ['4111111111111111', '411111••••••1111'],
    ['378282246310005', '378282•••••0005'],
    ['501800000009', '501800••0009'],
    ['5893000000000000003', '589300•••••••••0003'],
  ])('masks %s as %s and never returns the full number', async (number, masked) => {
    const r = await callTool(registry, 'card_brand', { number });
    expect(r.masked).toBe(masked);
    expect(JSON.stringify(r)).not.toContain(number);
    expect(JSON.stringify(r)).not.toContain(number.slice(0, 7));
  });

  it.each([
    ['4111 1111 1111 111a', /position 19/],
    ['4111.1111.1111.1111', /position 5/],
    ['41111111111', /12–19 digits; this one has 11/],
    ['41111111111111111111', /12–19 digits; this one has 20/],
    ['', /12–19 digits; this one has 0/],
  ])('rejects %j without echoing it', async (number, msg) => {
    const err = await callToolError(registry, 'card_brand', { number });
    expect(err.status).toBe(422);
    expect(err.detail?.[0].loc).toEqual(['number']);
    expect(err.detail?.[0].msg).toMatch(msg);
    const body = JSON.stringify(err.toBody()) + err.message;
    if (digitsOf(number).length >= 6) expect(body).not.toContain(digitsOf(number).slice(0, 6));
  });

  it.each([[{ number: 4111111111111111 }], [{}], [{ number: '4'.repeat(65) }]])('schema rejects %j', async (input) => {
    const err = await callToolError(registry, 'card_brand', input);
    expect(err.status).toBe(422);
    expect(JSON.stringify(err.toBody())).not.toContain('41111111');
  });
});
