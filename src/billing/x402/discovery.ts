// What a client needs to pay without a first 402: for every priced tool its resource, description and
// accepts, and the header names of both protocol versions. Served at GET /.well-known/x402 and, per
// operation, as `x-payment-info` in /openapi.json.
import type { PaymentRequirements } from '@x402/core/types';
import type { Tool } from '../../registry/types.js';
import { requirementsFor, type PaymentSettings } from '../challenge.js';

export const X402_HEADERS = {
  v2: { payment: 'PAYMENT-SIGNATURE', required: 'PAYMENT-REQUIRED', response: 'PAYMENT-RESPONSE' },
  v1: { payment: 'X-PAYMENT', response: 'X-PAYMENT-RESPONSE' },
  mcp: { payment: '_meta["x402/payment"]', required: '_meta["x402/payment-required"]', response: '_meta["x402/payment-response"]' },
} as const;

export interface PaymentInfo {
  protocols: ['x402'];
  x402Version: 2;
  price: { usd: string };
  accepts: PaymentRequirements[];
  headers: typeof X402_HEADERS;
}

export function paymentInfo(tool: Tool, s: PaymentSettings): PaymentInfo | undefined {
  if (!tool.price) return undefined;
  return { protocols: ['x402'], x402Version: 2, price: { usd: tool.price.usd }, accepts: [requirementsFor(tool, s)], headers: X402_HEADERS };
}

/** The REST URL of a paid tool: the catalogue route, else its MCP address. */
const resourceOf = (t: Tool, baseUrl: string): { resource: string; type: 'http' | 'mcp'; method?: 'POST' } =>
  t.expose.catalog ? { resource: `${baseUrl}/tools/${t.name}`, type: 'http', method: 'POST' } : { resource: `mcp://tool/${t.name}`, type: 'mcp' };

export function discoveryDocument(tools: Tool[], s: PaymentSettings, baseUrl: string) {
  const resources = tools
    .filter((t) => t.price && (t.expose.catalog || t.expose.mcp))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => ({
      ...resourceOf(t, baseUrl),
      tool: t.name,
      description: t.description,
      mimeType: 'application/json',
      x402Version: 2,
      price: { usd: t.price!.usd },
      accepts: [requirementsFor(t, s)],
      ...(t.expose.mcp ? { mcp: { method: 'tools/call', name: t.name } } : {}),
    }));
  return {
    version: 2,
    x402Version: 2,
    facilitator: 'self: the gateway verifies and settles payments itself (transferWithAuthorization from its own wallet)',
    network: s.network,
    asset: { address: s.asset, name: s.assetName, version: s.assetVersion, decimals: s.decimals },
    payTo: s.payTo,
    headers: X402_HEADERS,
    schemes: ['exact'],
    count: resources.length,
    resources,
  };
}
