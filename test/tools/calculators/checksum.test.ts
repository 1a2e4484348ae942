import { describe, expect, it } from 'vitest';
import { checksumValidate, IBAN_LENGTHS } from '../../../tools/calculators/checksum.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const registry = pureRegistry([checksumValidate]);
const check = (type: string, value: string) => callTool(registry, 'checksum_validate', { type, value });

// Example IBANs of the SWIFT registry, one per country.
const REGISTRY_EXAMPLES = [
  'AD12 0001 2030 2003 5910 0100', 'AE07 0331 2345 6789 0123 456', 'AL47 2121 1009 0000 0002 3569 8741',
  'AT61 1904 3002 3457 3201', 'AZ21 NABZ 0000 0000 1370 1000 1944', 'BA39 1290 0794 0102 8494', 'BE68 5390 0754 7034',
  'BG80 BNBG 9661 1020 3456 78', 'BH67 BMAG 0000 1299 1234 56', 'BR18 0036 0305 0000 1000 9795 493C 1',
  'BY13 NBRB 3600 9000 0000 2Z00 AB00', 'CH93 0076 2011 6238 5295 7', 'CR05 0152 0200 1026 2840 66',
  'CY17 0020 0128 0000 0012 0052 7600', 'CZ65 0800 0000 1920 0014 5399', 'DE89 3704 0044 0532 0130 00',
  'DK50 0040 0440 1162 43', 'DO28 BAGR 0000 0001 2124 5361 1324', 'EE38 2200 2210 2014 5685',
  'EG38 0019 0005 0000 0000 2631 8000 2', 'ES91 2100 0418 4502 0005 1332', 'FI21 1234 5600 0007 85',
  'FO62 6460 0001 6316 34', 'FR14 2004 1010 0505 0001 3M02 606', 'GB29 NWBK 6016 1331 9268 19',
  'GE29 NB00 0000 0101 9049 17', 'GI75 NWBK 0000 0000 7099 453', 'GL89 6471 0001 0002 06',
  'GR16 0110 1250 0000 0001 2300 695', 'GT82 TRAJ 0102 0000 0012 1002 9690', 'HR12 1001 0051 8630 0016 0',
  'HU42 1177 3016 1111 1018 0000 0000', 'IE29 AIBK 9311 5212 3456 78', 'IL62 0108 0000 0009 9999 999',
  'IQ98 NBIQ 8501 2345 6789 012', 'IS14 0159 2600 7654 5510 7303 39', 'IT60 X054 2811 1010 0000 0123 456',
  'JO94 CBJO 0010 0000 0000 0131 0003 02', 'KW81 CBKU 0000 0000 0000 1234 5601 01', 'KZ86 125K ZT50 0410 0100',
  'LB62 0999 0000 0001 0019 0122 9114', 'LC55 HEMM 0001 0001 0012 0012 0002 3015', 'LI21 0881 0000 2324 013A A',
  'LT12 1000 0111 0100 1000', 'LU28 0019 4006 4475 0000', 'LV80 BANK 0000 4351 9500 1',
  'MC58 1122 2000 0101 2345 6789 030', 'MD24 AG00 0225 1000 1310 4168', 'ME25 5050 0001 2345 6789 51',
  'MK07 2501 2000 0058 984', 'MR13 0002 0001 0100 0012 3456 753', 'MT84 MALT 0110 0001 2345 MTLC AST0 01S',
  'MU17 BOMM 0101 1010 3030 0200 000M UR', 'NL91 ABNA 0417 1643 00', 'NO93 8601 1117 947',
  'PK36 SCBL 0000 0011 2345 6702', 'PL61 1090 1014 0000 0712 1981 2874', 'PS92 PALS 0000 0000 0400 1234 5670 2',
  'PT50 0002 0123 1234 5678 9015 4', 'QA58 DOHB 0000 1234 5678 90AB CDEF G', 'RO49 AAAA 1B31 0075 9384 0000',
  'RS35 2600 0560 1001 6113 79', 'SA03 8000 0000 6080 1016 7519', 'SC18 SSCB 1101 0000 0000 0000 1497 USD',
  'SE45 5000 0000 0583 9825 7466', 'SI56 2633 0001 2039 086', 'SK31 1200 0000 1987 4263 7541',
  'SM86 U032 2509 8000 0000 0270 100', 'ST23 0001 0001 0051 8453 1014 6', 'SV62 CENR 0000 0000 0000 0070 0025',
  'TL38 0080 0123 4567 8910 157', 'TN59 1000 6035 1835 9847 8831', 'TR33 0006 1005 1978 6457 8413 26',
  'UA21 3223 1300 0002 6007 2335 6600 1', 'VA59 0011 2300 0012 3456 78', 'VG96 VPVG 0000 0123 4567 8901',
  'XK05 1212 0123 4567 8906',
];

describe('checksum_validate: IBAN', () => {
  it('covers the SWIFT registry (89 countries)', () => {
    expect(Object.keys(IBAN_LENGTHS)).toHaveLength(89);
  });

  it.each(REGISTRY_EXAMPLES)('%s is valid', async (iban) => {
    const r = await check('iban', iban);
    expect(r).toMatchObject({ type: 'iban', valid: true, reason: null, length_valid: true, checksum_valid: true, formatted: iban });
    expect(r.corrected_check_digits).toBe(iban.slice(2, 4));
  });

  it('GB82 WEST 1234 5698 7654 32 in full', async () => {
    expect(await check('iban', 'gb82west12345698765432')).toEqual({
      type: 'iban',
      valid: true,
      reason: null,
      normalized: 'GB82WEST12345698765432',
      country: 'GB',
      length: 22,
      expected_length: 22,
      length_valid: true,
      check_digits: '82',
      checksum_valid: true,
      corrected_check_digits: '82',
      formatted: 'GB82 WEST 1234 5698 7654 32',
    });
  });

  it.each([
    ['GB83 WEST 1234 5698 7654 32', { checksum_valid: false, corrected_check_digits: '82', reason: expect.stringMatching(/check digits 83 are wrong; 82/) }],
    ['DE00 3704 0044 0532 0130 00', { checksum_valid: false, corrected_check_digits: '89' }],
    ['DE89 3704 0044 0532 0130 01', { checksum_valid: false, length_valid: true }],
    ['GB82 WEST 1234 5698 7654 3', { length_valid: false, expected_length: 22, length: 21, reason: expect.stringMatching(/has 22 characters/) }],
    ['ZZ82 WEST 1234 5698 7654 32', { country: 'ZZ', expected_length: null, length_valid: false, reason: expect.stringMatching(/unknown IBAN country/) }],
    // 99 passes plain mod-97 (it is 02 + 97) but ISO 13616 allows only 02–98.
    ['NL99 ABNA 0417 1643 50', { checksum_valid: false, corrected_check_digits: '02' }],
  ])('%s is not valid', async (iban, out) => {
    const r = await check('iban', iban);
    expect(r.valid).toBe(false);
    expect(r).toMatchObject(out);
  });

  it('NL02 ABNA 0417 1643 50 (the canonical form of the 99 alias) is valid', async () => {
    expect((await check('iban', 'NL02 ABNA 0417 1643 50')).valid).toBe(true);
  });

  it('the corrected check digits make it valid', async () => {
    const r = await check('iban', 'DE00 3704 0044 0532 0130 00');
    const fixed = await check('iban', `DE${r.corrected_check_digits}370400440532013000`);
    expect(fixed.valid).toBe(true);
  });

  it.each([
    ['GB82-WEST-1234-5698-7654-32', /only letters, digits and spaces/],
    ['1234 5678', /two-letter country code/],
    ['GBXX WEST 1234', /two check digits/],
    ['GB8', /two-letter country code and two check digits/],
    ['GB82', /5–34 characters/],
    ['GB82' + '1'.repeat(31), /5–34 characters/],
    ['', /two-letter country code/],
  ])('rejects %j with 422', async (value, msg) => {
    const err = await callToolError(registry, 'checksum_validate', { type: 'iban', value });
    expect(err.status).toBe(422);
    expect(err.detail).toEqual([{ loc: ['value'], msg: expect.stringMatching(msg), type: 'value_error' }]);
  });
});

describe('checksum_validate: ISBN', () => {
  it.each([
    ['isbn10', '0-306-40615-2', { valid: true, check_digit: '2', expected_check_digit: '2', corrected: '0306406152', isbn13: '9780306406157' }],
    ['isbn10', '0 8044 2957 X', { valid: true, check_digit: 'X', expected_check_digit: 'X', isbn13: '9780804429573' }],
    ['isbn10', '080442957x', { valid: true, normalized: '080442957X' }],
    ['isbn10', '0-306-40615-3', { valid: false, check_digit: '3', expected_check_digit: '2', corrected: '0306406152', reason: expect.stringMatching(/check digit 3 is wrong; 2/) }],
    ['isbn10', '0-8044-2957-0', { valid: false, expected_check_digit: 'X', corrected: '080442957X' }],
    ['isbn13', '978-0-306-40615-7', { valid: true, check_digit: '7', expected_check_digit: '7', corrected: '9780306406157', prefix_valid: true }],
    ['isbn13', '979-10-90636-07-1', { valid: true, prefix_valid: true }],
    ['isbn13', '978-0-306-40615-8', { valid: false, expected_check_digit: '7', corrected: '9780306406157' }],
    ['isbn13', '123-0-306-40615-7', { valid: false, prefix_valid: false, reason: expect.stringMatching(/978 or 979/) }],
  ])('%s %s', async (type, value, out) => {
    const r = await check(type, value);
    expect(r).toMatchObject({ type, reason: out.valid ? null : expect.any(String), ...out });
  });

  it.each([
    ['isbn10', '0-306-40615', /expected 10 characters, found 9/],
    ['isbn10', '03064061522', /expected 10 characters, found 11/],
    ['isbn10', '0306X06152', /X may only be the check digit/],
    ['isbn10', '0306406l52', /only digits, a final X/],
    ['isbn13', '978030640615', /expected 13 digits, found 12/],
    ['isbn13', '978030640615X', /only digits, hyphens and spaces/],
  ])('%s rejects %j with 422', async (type, value, msg) => {
    const err = await callToolError(registry, 'checksum_validate', { type, value });
    expect(err.status).toBe(422);
    expect(err.detail?.[0].msg).toMatch(msg);
  });
});

describe('checksum_validate: auto', () => {
  it.each([
    ['GB82 WEST 1234 5698 7654 32', 'iban', true],
    ['de89370400440532013000', 'iban', true],
    ['978-0-306-40615-7', 'isbn13', true],
    ['0-306-40615-2', 'isbn10', true],
    ['030640615X', 'isbn10', false],
  ])('%s → %s', async (value, type, valid) => {
    const r = await callTool(registry, 'checksum_validate', { value });
    expect(r.type).toBe(type);
    expect(r.valid).toBe(valid);
  });

  it.each(['12345', '978-0-306', 'hello world!', ''])('cannot detect %j: 422', async (value) => {
    const err = await callToolError(registry, 'checksum_validate', { type: 'auto', value });
    expect(err.status).toBe(422);
    expect(err.detail?.[0].loc).toEqual(['value']);
  });

  it.each([[{ type: 'ean', value: '1' }, 'type'], [{ type: 'iban' }, 'value'], [{ value: 'x'.repeat(101) }, 'value']])(
    'schema rejects %j on %s',
    async (input, field) => {
      const err = await callToolError(registry, 'checksum_validate', input);
      expect(err.status).toBe(422);
      expect(err.detail?.[0].loc).toEqual([field]);
    },
  );
});
