// GET /.well-known/x402: the x402 discovery document (paid resources, their accepts, header names).
import { z } from 'zod';
import { discoveryDocument } from '../../src/billing/x402/discovery.js';
import { defineTool } from '../../src/registry/define-tool.js';

export const x402Discovery = defineTool({
  name: 'x402_discovery',
  title: 'x402 discovery',
  toolset: 'payments',
  description:
    'Pay-per-call with x402: every paid resource with its payment requirements (amount, asset, network, payTo), ' +
    'and the header names for x402 v2 and v1.',
  input: z.object({}),
  auth: 'public',
  expose: { mcp: false, catalog: false },
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => discoveryDocument(ctx.services.listTools(), ctx.services.payments, ctx.config.baseUrl),
});

export const x402Tools = [x402Discovery];
