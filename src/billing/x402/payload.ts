// Reads a payment from PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (v1), checks its shape and matches it against
// our own requirements for the tool. Everything here is local: no chain access, no database.
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadV1Schema, PaymentPayloadV2Schema } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { EVM_NETWORK_CHAIN_ID_MAP } from '@x402/evm/v1';
import { z } from 'zod';
import type { Credentials } from '../../registry/types.js';
import { PaymentRejected, Reason } from './reasons.js';

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address');
const Uint = z.string().regex(/^\d{1,78}$/, 'must be a decimal integer string');

/** The EIP-3009 payload of the exact EVM scheme; the only kind the gateway offers. */
const ExactEip3009 = z.object({
  signature: z.string().regex(/^0x[0-9a-fA-F]{2,}$/, 'must be 0x hex'),
  authorization: z.object({
    from: Address,
    to: Address,
    value: Uint,
    validAfter: Uint,
    validBefore: Uint,
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32 bytes of 0x hex'),
  }),
});

export type Authorization = z.output<typeof ExactEip3009>['authorization'];

export interface DecodedPayment {
  version: 1 | 2;
  /** The header the receipt goes back in. */
  responseHeader: 'PAYMENT-RESPONSE' | 'X-PAYMENT-RESPONSE';
  /** The network as the client named it (a v1 name such as base-sepolia, or CAIP-2), echoed in the receipt. */
  networkLabel: string;
  /** The payment in v2 form with `accepted` = our requirements, as the facilitator verifies and settles it. */
  payload: PaymentPayload;
  authorization: Authorization;
  signature: `0x${string}`;
}

const lower = (s: unknown): string => String(s ?? '').toLowerCase();

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const i = error.issues[0];
  return i ? `${i.path.map(String).join('.') || 'payment'}: ${i.message}` : 'malformed payment';
}

/** v1 networks have names (base, base-sepolia); a v1 client may also send the CAIP-2 id. */
function sameNetwork(named: string, req: PaymentRequirements): boolean {
  if (named === req.network) return true;
  const chainId = (EVM_NETWORK_CHAIN_ID_MAP as Record<string, number>)[named];
  return chainId !== undefined && `eip155:${chainId}` === req.network;
}

function parseJson(raw: string, header: string): unknown {
  try {
    return decodePaymentSignatureHeader(raw.trim());
  } catch {
    throw new PaymentRejected(Reason.invalidPayload, `the ${header} header is not base64-encoded JSON`);
  }
}

/** Decodes and matches the payment; throws PaymentRejected with the first thing that is wrong. */
export function decodePayment(c: Credentials, req: PaymentRequirements): DecodedPayment {
  const v2Header = c.paymentSignature !== undefined;
  const header = v2Header ? 'PAYMENT-SIGNATURE' : 'X-PAYMENT';
  const json = parseJson((v2Header ? c.paymentSignature : c.xPayment) ?? '', header);
  const version = (json as { x402Version?: unknown } | null)?.x402Version;
  let networkLabel = req.network as string;
  let inner: unknown;
  let out: Pick<DecodedPayment, 'version' | 'responseHeader'>;

  if (version === 2) {
    const p = PaymentPayloadV2Schema.safeParse(json);
    if (!p.success) throw new PaymentRejected(Reason.invalidPayload, firstIssue(p.error));
    const a = p.data.accepted;
    if (a.scheme !== req.scheme) throw new PaymentRejected(Reason.scheme);
    if (a.network !== req.network) throw new PaymentRejected(Reason.network, `wrong network: ${a.network} is not ${req.network}`);
    if (lower(a.asset) !== lower(req.asset)) throw new PaymentRejected(Reason.asset, `wrong asset: pay with ${req.asset}`);
    if (lower(a.payTo) !== lower(req.payTo)) throw new PaymentRejected(Reason.recipient, `wrong payTo: pay ${req.payTo}`);
    if (a.amount !== req.amount) throw new PaymentRejected(Reason.amount, `wrong amount: ${a.amount} offered, the price is ${req.amount}`);
    inner = p.data.payload;
    out = { version: 2, responseHeader: v2Header ? 'PAYMENT-RESPONSE' : 'X-PAYMENT-RESPONSE' };
  } else if (version === 1 && !v2Header) {
    const p = PaymentPayloadV1Schema.safeParse(json);
    if (!p.success) throw new PaymentRejected(Reason.invalidPayload, firstIssue(p.error));
    if (p.data.scheme !== req.scheme) throw new PaymentRejected(Reason.scheme);
    if (!sameNetwork(p.data.network, req)) throw new PaymentRejected(Reason.network, `wrong network: ${p.data.network} is not ${req.network}`);
    networkLabel = p.data.network;
    inner = p.data.payload;
    out = { version: 1, responseHeader: 'X-PAYMENT-RESPONSE' };
  } else {
    throw new PaymentRejected(Reason.invalidVersion, `${header} must carry x402Version ${v2Header ? '2' : '1 or 2'}`);
  }

  if (inner && typeof inner === 'object' && 'permit2Authorization' in inner) {
    throw new PaymentRejected(Reason.unsupportedPayload, 'only EIP-3009 authorizations (transferWithAuthorization) are accepted');
  }
  const e = ExactEip3009.safeParse(inner);
  if (!e.success) throw new PaymentRejected(Reason.invalidPayload, `payload.${firstIssue(e.error)}`);
  const auth = e.data.authorization;
  if (lower(auth.to) !== lower(req.payTo)) throw new PaymentRejected(Reason.recipient, `wrong payTo: the authorization pays ${auth.to}, not ${req.payTo}`, auth.from);
  if (auth.value !== req.amount) throw new PaymentRejected(Reason.amount, `wrong amount: the authorization pays ${auth.value}, the price is ${req.amount}`, auth.from);
  return {
    ...out,
    networkLabel,
    payload: { x402Version: 2, accepted: req, payload: e.data },
    authorization: auth,
    signature: e.data.signature as `0x${string}`,
  };
}

/** Seconds a settlement needs after verification (the facilitator asks for 6 too). */
export const SETTLE_MARGIN_SECONDS = 6;

/** The validity window against the gateway clock. */
export function checkWindow(auth: Authorization, nowMs: number): void {
  const now = BigInt(Math.floor(nowMs / 1000));
  if (BigInt(auth.validBefore) < now + BigInt(SETTLE_MARGIN_SECONDS)) {
    throw new PaymentRejected(Reason.validBefore, `expired: validBefore ${auth.validBefore} is not after now (${now}) + ${SETTLE_MARGIN_SECONDS} s`, auth.from);
  }
  if (BigInt(auth.validAfter) > now) {
    throw new PaymentRejected(Reason.validAfter, `not yet valid: validAfter ${auth.validAfter} is after now (${now})`, auth.from);
  }
}
