// The x402 v2 payment challenge (docs/decisions/x402.md): HTTP 402 with a base64 JSON PAYMENT-REQUIRED header, the same
// JSON in the body; over MCP an isError tool result carrying it (x402 MCP transport convention).
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { X402Config } from '../config.js';
import { GatewayError } from '../errors.js';
import type { PricedTool, Transport } from '../registry/call-types.js';
import { toAtomicUnits } from './price.js';

export interface PaymentSettings extends X402Config {
  payTo: string;
}

export function requirementsFor(tool: PricedTool, s: PaymentSettings): PaymentRequirements {
  if (!tool.price) throw new Error(`tool ${tool.name} has no price`);
  return {
    scheme: 'exact',
    network: s.network as PaymentRequirements['network'],
    amount: toAtomicUnits(tool.price.usd, s.decimals),
    asset: s.asset,
    payTo: s.payTo,
    maxTimeoutSeconds: s.maxTimeoutSeconds,
    extra: { name: s.assetName, version: s.assetVersion },
  };
}

/** Where the paid resource lives: the REST URL, or `mcp://tool/<name>` over MCP. */
export const resourceUrl = (tool: PricedTool, transport: Transport, baseUrl: string): string =>
  transport === 'mcp' ? `mcp://tool/${tool.name}` : `${baseUrl}${tool.restPath ?? `/tools/${tool.name}`}`;

export function paymentRequired(tool: PricedTool, s: PaymentSettings, url: string, error: string): PaymentRequired {
  return {
    x402Version: 2,
    error,
    resource: { url, description: tool.description, mimeType: 'application/json' },
    accepts: [requirementsFor(tool, s)],
  };
}

/**
 * The PAYMENT-REQUIRED header: base64 of the JSON's UTF-8, byte for byte what @x402/core's
 * encodePaymentRequiredHeader makes (test/billing/challenge.test.ts), without loading @x402/core/http (and the
 * facilitator client behind it) for every gateway that starts.
 */
export const encodePaymentRequiredHeader = (pr: PaymentRequired): string => Buffer.from(JSON.stringify(pr), 'utf8').toString('base64');

/** The 402 error: message for people, PaymentRequired for clients, headers for both transports. */
export function paymentRequiredError(pr: PaymentRequired, extraHeaders: Record<string, string> = {}): GatewayError {
  return new GatewayError('payment_required', pr.error, {
    headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(pr), ...extraHeaders },
    payment: pr as unknown as Record<string, unknown>,
  });
}
