// A prompt to images through the operator's OpenAI-compatible images endpoint (IMAGE_*). The endpoint is
// trusted configuration and is called directly; the image URLs it may answer with are not (it could name any
// address), so they are fetched through egress with every SSRF rule. Every image is checked to be a PNG,
// JPEG, GIF or WebP, and its type and size are read from its bytes.
import { isEgressError } from '../../src/egress/index.js';
import { GatewayError } from '../../src/errors.js';
import { images, type GeneratedImage } from '../../src/llm/openai-client.js';
import type { ToolContext } from '../../src/registry/types.js';
import { imageInfo, type ImageInfo } from './image-info.js';

/** Most bytes of one generated image (a 1536×1024 PNG from gpt-image-1 is about 3 MB). */
export const UPSTREAM_MAX_BYTES = 20 * 1024 * 1024;

export interface Generated extends ImageInfo {
  bytes: Buffer;
  revised_prompt?: string;
}

const badAnswer = (message: string, reason: string, extra: Record<string, unknown> = {}) =>
  new GatewayError('upstream_error', message, { extra: { reason, ...extra } });

async function bytesOf(ctx: ToolContext, item: GeneratedImage, timeoutMs: number): Promise<Buffer> {
  if (item.b64_json !== undefined) {
    const bytes = Buffer.from(item.b64_json, 'base64');
    if (bytes.length > UPSTREAM_MAX_BYTES) throw badAnswer(`The images endpoint sent an image of ${bytes.length} bytes; the limit is ${UPSTREAM_MAX_BYTES}.`, 'too_large');
    return bytes;
  }
  let res;
  try {
    res = await ctx.services.egress.fetch(item.url!, { maxBytes: UPSTREAM_MAX_BYTES, totalTimeoutMs: timeoutMs, signal: ctx.signal, headers: { accept: 'image/*' } });
  } catch (err) {
    if (isEgressError(err)) throw badAnswer(`The image URL the images endpoint answered with could not be fetched: ${err.message}`, err.code);
    throw err;
  }
  if (res.status < 200 || res.status > 299) throw badAnswer(`The image URL the images endpoint answered with gave ${res.status}.`, 'image_url_status', { upstream_status: res.status });
  return res.body;
}

/** `n` images for `prompt` at `size`, with their bytes, type and pixel size. */
export async function generate(ctx: ToolContext, cfg: NonNullable<ToolContext['config']['images']>, req: { prompt: string; n: number; size?: string }): Promise<Generated[]> {
  const answer = await images(cfg, req, ctx.signal);
  return Promise.all(
    answer.data.map(async (item) => {
      const bytes = await bytesOf(ctx, item, cfg.timeoutMs);
      const info = imageInfo(bytes);
      if (!info) throw badAnswer('The images endpoint answered with something that is not a PNG, JPEG, GIF or WebP image.', 'not_an_image');
      return { bytes, ...info, ...(item.revised_prompt ? { revised_prompt: item.revised_prompt } : {}) };
    }),
  );
}
