// A tool's answer as an MCP tool result: its blocks or JSON as content (with structuredContent), a file as one
// block, and x402's payment-required result. Both eras' tools/call and the tasks extension give results this way.
import type { GatewayError } from '../errors.js';
import { blockJson, fileBlock, type BlockJson, isContentResult, isFileResult } from '../registry/content-result.js';

/** An MCP content block as it goes on the wire (text, image, audio, embedded resource). */
export type McpContent = BlockJson;

export interface CallToolResult {
  [k: string]: unknown;
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const withMeta = (meta: Record<string, unknown> | undefined) => (meta && Object.keys(meta).length ? { _meta: meta } : {});

export const textResult = (value: unknown, isError: boolean, meta?: Record<string, unknown>): CallToolResult => {
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
    ...(isError ? { isError: true } : {}),
    ...withMeta(meta),
  };
};

/**
 * A tool's result as MCP content: blocks as the tool gave them (a file as one block), JSON as text plus
 * structuredContent. A result with data keeps its JSON text block too, for clients that read only text.
 */
export function toolResult(value: unknown, toolName: string, meta?: Record<string, unknown>): CallToolResult {
  if (isFileResult(value)) return { content: [blockJson(fileBlock(value, fileUri(toolName, value.filename)))], ...withMeta(meta) };
  if (!isContentResult(value)) return textResult(value, false, meta);
  const content: McpContent[] = value.content.map(blockJson);
  if (value.data) content.push({ type: 'text', text: JSON.stringify(value.data) });
  return { content, ...(value.data ? { structuredContent: value.data } : {}), ...withMeta(meta) };
}

/** Where a file a tool returned is said to come from, when it has no resource of its own. */
const fileUri = (tool: string, filename: string): string => `gateway://tools/${tool}/${encodeURIComponent(filename)}`;

/** x402 MCP transport convention: isError result, PaymentRequired as structuredContent, wrapped in the text. */
export function paymentResult(ge: GatewayError): CallToolResult {
  const pr = ge.payment!;
  const settlement = pr['x402/payment-response'];
  return {
    isError: true,
    structuredContent: pr,
    content: [{ type: 'text', text: JSON.stringify({ 'x402/error': { code: 402, message: ge.message, data: pr } }) }],
    _meta: { 'x402/payment-required': pr, ...(settlement ? { 'x402/payment-response': settlement } : {}) },
  };
}
