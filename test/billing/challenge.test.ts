// The 402 header is encoded without @x402/core at start-up; it must stay what the x402 library makes and reads.
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader as libraryEncode } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { describe, expect, it } from 'vitest';
import { encodePaymentRequiredHeader } from '../../src/billing/challenge.js';

describe('PAYMENT-REQUIRED header', () => {
  it('is byte for byte what @x402/core encodes, non-ASCII included, and decodes with it', () => {
    const pr: PaymentRequired = {
      x402Version: 2,
      error: 'Payment required — “paid” tool ✓ 日本',
      resource: { url: 'http://127.0.0.1:8787/tools/calc_ä', description: 'Ünïcödé description 💸', mimeType: 'application/json' },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:84532',
          amount: '1000',
          asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
          payTo: '0x0000000000000000000000000000000000000001',
          maxTimeoutSeconds: 60,
          extra: { name: 'USDC', version: '2' },
        },
      ],
    };
    expect(encodePaymentRequiredHeader(pr)).toBe(libraryEncode(pr));
    expect(decodePaymentRequiredHeader(encodePaymentRequiredHeader(pr))).toEqual(pr);
  });
});
