// The `gen_image` verb (spec: MCP-only verbs, issue 22; docs/decisions/gen-image.md). A `spec` (Vega-Lite,
// Vega or SVG) is rendered here to PNG, in a render process, with no upstream at all; a `prompt` goes to the
// operator's OpenAI-compatible images endpoint (IMAGE_*). Either way the images come back as MCP image content
// and as artifacts (a URL each), with the structured result beside them. Paid: a failed call is not charged
// (the registry releases the charge when the handler throws).
import { z } from 'zod';
import { contentOf } from '../../src/blobs/content.js';
import { GatewayError, validationError } from '../../src/errors.js';
import { contentResult } from '../../src/registry/content-result.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { Tool, ToolContext } from '../../src/registry/types.js';
import { AGENT_MAX_TTL, ANON_MAX_TTL, storeArtifact } from '../artifacts/service.js';
import { extensionOf, type ImageInfo } from './image-info.js';
import { LIMITS, type RenderReply, type RenderRequest } from './limits.js';
import { renderInProcess } from './renderer.js';
import { generate } from './upstream.js';

const GenImageInput = z.object({
  prompt: z.string().trim().min(1).max(4000).optional().describe('What to draw, in words: sent to the configured image model.'),
  spec: z
    .union([z.string().min(1).max(LIMITS.maxSpecChars), z.record(z.string(), z.unknown())])
    .optional()
    .describe('A chart or diagram to render here, no model involved: a Vega-Lite or Vega spec (JSON object or text, data inline as "values") or SVG text.'),
  size: z
    .string()
    .regex(/^(auto|\d{2,4}x\d{2,4})$/, 'a size such as 1024x1024, or auto')
    .optional()
    .describe('With a prompt: the image size the model supports, e.g. 1024x1024, 1536x1024, 1024x1536 or auto.'),
  n: z.number().int().min(1).max(4).optional().describe('With a prompt: how many images (1–4, default 1).'),
  scale: z.number().min(LIMITS.minScale).max(LIMITS.maxScale).optional().describe('With a spec: multiplies its size (default 1; 2 for a sharper image).'),
});

const ImageOut = z.object({
  url: z.string().describe('The image as an artifact: downloadable at this URL until expires_at.'),
  artifact_id: z.string(),
  content_type: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  expires_at: z.string(),
  revised_prompt: z.string().optional().describe('The prompt as the model rewrote it, when it says.'),
});

const GenImageOutput = z.object({
  source: z.enum(['spec', 'prompt']).describe('spec: rendered here; prompt: drawn by the image model.'),
  spec_type: z.enum(['vega-lite', 'vega', 'svg']).optional().describe('What the spec was read as.'),
  model: z.string().optional().describe('The image model that drew a prompt.'),
  images: z.array(ImageOut),
  warnings: z.array(z.string()).describe('What Vega or Vega-Lite warned about while rendering (at most 20).'),
});
type GenImageOutput = z.infer<typeof GenImageOutput>;

const invalid = (field: string, msg: string, type = 'value_error') => validationError([{ loc: [field], msg, type }]);

interface Image extends ImageInfo {
  bytes: Buffer;
  revised_prompt?: string;
}

/** Renders in flight (running or waiting) per caller: failures cost nothing, so slow specs must not pile up. */
const inFlight = new Map<string, number>();

/** Who is rendering: the agent, else the API key, else the client's address (hashed). */
const callerKey = (ctx: ToolContext): string =>
  ctx.caller.agent ? `agent:${ctx.caller.agent.id}` : ctx.caller.credentials.apiKey ? `key:${ctx.caller.credentials.apiKey}` : `client:${ctx.services.clientKey(ctx.caller.credentials.ip)}`;

async function rendered(req: RenderRequest, ctx: ToolContext): Promise<RenderReply> {
  const who = callerKey(ctx);
  const n = inFlight.get(who) ?? 0;
  if (n >= LIMITS.perCaller) {
    throw new GatewayError('rate_limited', `At most ${LIMITS.perCaller} of your images are rendered at a time; retry when one has finished.`, { headers: { 'Retry-After': '1' } });
  }
  inFlight.set(who, n + 1);
  try {
    return await renderInProcess(req, ctx.config.imageRenderMs, ctx.signal);
  } finally {
    const left = (inFlight.get(who) ?? 1) - 1;
    if (left > 0) inFlight.set(who, left);
    else inFlight.delete(who);
  }
}

async function fromSpec(input: z.output<typeof GenImageInput>, ctx: ToolContext): Promise<{ images: Image[]; spec_type: 'vega-lite' | 'vega' | 'svg'; warnings: string[] }> {
  for (const field of ['size', 'n'] as const) {
    if (input[field] !== undefined) throw invalid(field, 'applies to a prompt; a spec sets its own size (width and height in it), and scale multiplies it.');
  }
  const reply = await rendered({ spec: input.spec!, scale: input.scale ?? 1 }, ctx);
  if (!reply.ok) {
    throw new GatewayError('validation_error', reply.message, { detail: [{ loc: ['spec'], msg: reply.message, type: reply.reason }], extra: { reason: reply.reason } });
  }
  const bytes = Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength);
  return { images: [{ bytes, contentType: 'image/png', width: reply.width, height: reply.height }], spec_type: reply.kind, warnings: reply.warnings };
}

async function fromPrompt(input: z.output<typeof GenImageInput>, ctx: ToolContext): Promise<{ images: Image[]; model: string }> {
  if (input.scale !== undefined) throw invalid('scale', 'applies to a spec; with a prompt, ask for a size.');
  const cfg = ctx.config.images;
  if (!cfg) {
    const msg =
      'This gateway has no images endpoint, so it cannot draw a prompt: its operator sets IMAGE_BASE_URL (an OpenAI-compatible API, e.g. https://api.openai.com/v1), IMAGE_API_KEY and IMAGE_MODEL. Charts and diagrams need none: send a spec (Vega-Lite, Vega or SVG).';
    throw new GatewayError('validation_error', msg, { detail: [{ loc: ['prompt'], msg, type: 'not_configured' }], extra: { reason: 'not_configured' } });
  }
  const images = await generate(ctx, cfg, { prompt: input.prompt!, n: input.n ?? 1, size: input.size });
  return { images, model: cfg.model };
}

export const genImage = defineTool({
  name: 'gen_image',
  title: 'Make an image',
  toolset: 'verbs',
  description:
    'Makes a PNG from a chart or diagram spec, rendered here (Vega-Lite, Vega or SVG; data inline, nothing is fetched), or an image from a text ' +
    'prompt through the configured image model. Give either spec (with optional scale) or prompt (with optional size and n). The images come ' +
    'back as image content and as artifact URLs, with their type, size and pixel dimensions. Failed calls are not charged.',
  input: GenImageInput,
  output: GenImageOutput,
  auth: 'paid',
  price: { usd: '0.04' },
  expose: { mcpOnly: true },
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
  handler: async (input, ctx) => {
    if (input.prompt !== undefined && input.spec !== undefined) throw invalid('spec', 'give either a prompt or a spec, not both.');
    if (input.prompt === undefined && input.spec === undefined) {
      throw invalid('spec', 'give a spec (Vega-Lite, Vega or SVG, rendered here) or a prompt (drawn by the image model).', 'missing');
    }
    const made = input.spec !== undefined ? await fromSpec(input, ctx) : await fromPrompt(input, ctx);
    const agent = ctx.caller.agent;
    const stored = [];
    for (const [i, img] of made.images.entries()) {
      const a = await storeArtifact(ctx, {
        content: contentOf(img.bytes),
        contentType: img.contentType,
        filename: `${input.spec !== undefined ? 'chart' : 'image'}-${i + 1}.${extensionOf(img.contentType)}`,
        ttlSeconds: agent ? AGENT_MAX_TTL : ANON_MAX_TTL,
        agentId: agent?.id ?? null,
        source: 'gen_image',
        clientKey: agent ? null : ctx.services.clientKey(ctx.caller.credentials.ip),
      });
      stored.push({
        url: a.url,
        artifact_id: a.id,
        content_type: img.contentType,
        bytes: a.bytes,
        sha256: a.sha256,
        width: img.width,
        height: img.height,
        expires_at: a.expires_at,
        ...(img.revised_prompt ? { revised_prompt: img.revised_prompt } : {}),
      });
    }
    const data: GenImageOutput =
      'spec_type' in made
        ? { source: 'spec', spec_type: made.spec_type, images: stored, warnings: made.warnings }
        : { source: 'prompt', model: made.model, images: stored, warnings: [] };
    return contentResult(
      made.images.map((img) => ({ type: 'image' as const, bytes: img.bytes, mimeType: img.contentType })),
      data,
    );
  },
});

export const genImageTools: Tool[] = [genImage];
