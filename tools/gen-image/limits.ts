// gen_image's limits and the failures a spec can meet, shared by the tool and the render process.

export const LIMITS = {
  /** Characters of a spec (its JSON text, or the SVG). */
  maxSpecChars: 1_000_000,
  /** Pixels of the PNG on either side, and in all (16 MP). The same caps apply to images an SVG embeds. */
  maxSide: 4096,
  maxPixels: 4096 * 4096,
  /** Bytes of a rendered PNG (the artifact limit of a registered agent). */
  maxPngBytes: 5 * 1024 * 1024,
  /** `scale` bounds: the spec's own size times this. */
  minScale: 0.1,
  maxScale: 4,
  /** A render process's JavaScript heap (--max-old-space-size); a spec that needs more ends the process. */
  renderHeapMb: 256,
  /** Renders waiting for a render process; more are refused with 503. */
  maxQueued: 32,
  /** Renders one caller may have running or waiting at once; more are refused with 429. */
  perCaller: 2,
} as const;

/**
 * Why a spec could not be rendered (each a 422 naming `spec`):
 * - not_json: a string that is neither SVG (starts with `<`) nor JSON;
 * - unknown_spec: JSON that is neither Vega-Lite nor Vega;
 * - invalid_spec: Vega-Lite would not compile it or Vega would not parse or run it;
 * - external_data: a Vega(-Lite) spec asked to load data or an image from a URL (refused: SSRF);
 * - external_reference: an SVG referring to anything but its own fragments and embedded raster images;
 * - invalid_svg: the SVG does not parse;
 * - too_large: over a size cap (pixels, spec characters, PNG bytes, an embedded image);
 * - render_timeout, render_memory: over a render's time or heap.
 */
export type RenderReason =
  | 'not_json'
  | 'unknown_spec'
  | 'invalid_spec'
  | 'external_data'
  | 'external_reference'
  | 'invalid_svg'
  | 'too_large'
  | 'render_timeout'
  | 'render_memory';

export type SpecKind = 'vega-lite' | 'vega' | 'svg';

export interface RenderRequest {
  spec: string | Record<string, unknown>;
  scale: number;
}

export type RenderReply =
  | { ok: true; png: Uint8Array; width: number; height: number; kind: SpecKind; warnings: string[]; ms: { compile: number; svg: number; raster: number } }
  | { ok: false; reason: RenderReason; message: string };
