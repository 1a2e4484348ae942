// The receipt a paid call answers with (PAYMENT-RESPONSE, or X-PAYMENT-RESPONSE for v1 clients; over MCP in
// `_meta["x402/payment-response"]`), and the 402 for a refused payment or a failed settlement.
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { GatewayError } from '../../errors.js';
import type { DecodedPayment } from './payload.js';

export const RECEIPT_META = 'x402/payment-response';

export interface Receipt {
  success: boolean;
  transaction: string;
  network: string;
  payer: string;
  errorReason?: string;
}

export const receiptHeader = (d: DecodedPayment, r: Receipt): Record<string, string> => ({
  [d.responseHeader]: encodePaymentResponseHeader(r as never),
});

/** 402 with the challenge; with a receipt (settlement failed) it rides in the body and its header too. */
export function paymentError(pr: PaymentRequired, headers: Record<string, string>, receipt?: { d: DecodedPayment; r: Receipt }): GatewayError {
  return new GatewayError('payment_required', pr.error, {
    headers: { ...headers, 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(pr), ...(receipt ? receiptHeader(receipt.d, receipt.r) : {}) },
    payment: { ...(pr as unknown as Record<string, unknown>), ...(receipt ? { [RECEIPT_META]: receipt.r } : {}) },
  });
}
