// A spec to PNG with no upstream: Vega-Lite is compiled to Vega, Vega runs headless to an SVG string
// (`View.toSVG()`, no node-canvas), and resvg rasterises the SVG with the DejaVu fonts only, so text looks the
// same on every machine. Runs in the render process (render-process.ts), never on the gateway's event loop.
//
// Nothing here reaches the network or the disk on a spec's behalf: Vega's loader refuses every URL (data must
// be inline `values`), and an SVG may refer only to its own fragments and to embedded PNG/JPEG/GIF/WebP data.
// resvg never fetches http(s) images, but it does read local files named by an `href` (`/etc/…`, `file.png`),
// and it renders an embedded SVG image with the same rules, so both are refused before it parses anything.
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';
import { imageInfo } from './image-info.js';
import { LIMITS, type RenderReason, type RenderReply, type RenderRequest, type SpecKind } from './limits.js';

export class RenderError extends Error {
  constructor(
    readonly reason: RenderReason,
    message: string,
  ) {
    super(message);
  }
}

// ---- Fonts -------------------------------------------------------------------------------------------------

const FONT_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const fontFiles = (family: string, faces: string[]): string[] => faces.map((f) => path.join(FONT_DIR, `${family}${f}.ttf`));
const SANS = fontFiles('DejaVuSans', ['', '-Bold', '-Oblique', '-BoldOblique']);
const SERIF = fontFiles('DejaVuSerif', ['', '-Bold', '-Italic', '-BoldItalic']);
const MONO = fontFiles('DejaVuSansMono', ['', '-Bold', '-Oblique', '-BoldOblique']);

/**
 * DejaVu only, never the machine's fonts, so text renders the same everywhere. resvg-js maps every generic
 * family (sans-serif, serif, monospace…) to the default family, DejaVu Sans; DejaVu Serif and DejaVu Sans Mono
 * render as themselves when an SVG names them, and are loaded only then (each face loaded costs about a
 * millisecond per render: resvg builds its font database anew for every image).
 */
function fontsFor(svg: string): NonNullable<ResvgRenderOptions['font']> {
  const files = [...SANS, ...(/DejaVu\s*Serif/i.test(svg) ? SERIF : []), ...(/DejaVu\s*Sans\s*Mono/i.test(svg) ? MONO : [])];
  return { loadSystemFonts: false, fontFiles: files, defaultFontFamily: 'DejaVu Sans' };
}

// ---- What the spec is ----------------------------------------------------------------------------------------

const VEGA_LITE_KEYS = ['mark', 'layer', 'concat', 'hconcat', 'vconcat', 'facet', 'repeat'];
const VEGA_KEYS = ['marks', 'signals', 'scales', 'axes', 'legends', 'projections'];

/** The spec as SVG text or as a Vega(-Lite) object, and which it is. */
export function readSpec(spec: RenderRequest['spec']): { kind: 'svg'; svg: string } | { kind: 'vega-lite' | 'vega'; json: Record<string, unknown> } {
  let json: unknown = spec;
  if (typeof spec === 'string') {
    const text = spec.trim();
    if (text.startsWith('<')) return { kind: 'svg', svg: text };
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new RenderError('not_json', `spec is neither SVG (which starts with "<") nor JSON: ${(err as Error).message}`);
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new RenderError('unknown_spec', 'spec must be a Vega-Lite or Vega JSON object, or SVG text.');
  const o = json as Record<string, unknown>;
  const schema = typeof o.$schema === 'string' ? o.$schema : '';
  if (/vega-lite/i.test(schema)) return { kind: 'vega-lite', json: o };
  if (/\/vega\/v\d/i.test(schema)) return { kind: 'vega', json: o };
  if (VEGA_LITE_KEYS.some((k) => k in o)) return { kind: 'vega-lite', json: o };
  if (VEGA_KEYS.some((k) => k in o)) return { kind: 'vega', json: o };
  throw new RenderError('unknown_spec', 'spec is neither Vega-Lite (it has no mark, layer, concat, facet or repeat) nor Vega (no marks, signals, scales or axes); say which with $schema.');
}

// ---- Vega(-Lite) to SVG ------------------------------------------------------------------------------------

const EMBEDDED_RASTER = /^data:image\/(png|jpeg|jpg|gif|webp);base64,/;
const clip = (s: string, n = 300): string => (s.length > n ? `${s.slice(0, n)}…` : s);
const text = (args: unknown[]): string => clip(args.map((a) => (a instanceof Error ? a.message : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));

/** Warnings and errors Vega and Vega-Lite log, kept instead of printed. */
function collectingLogger(warnings: string[], errors: string[]) {
  let level = 2; // vega.Warn
  const logger = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    error: (...args: unknown[]) => (errors.push(text(args)), logger),
    warn: (...args: unknown[]) => (warnings.length < 20 && warnings.push(text(args)), logger),
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

/**
 * A loader that loads nothing: data must come inline (`values`), since a URL here would be fetched by the
 * gateway, from inside its network (SSRF). Embedded images (data: PNG/JPEG/GIF/WebP) pass; links are
 * dropped (they mean nothing in a PNG); anything else is noted in `refused` and fails the render.
 */
function closedLoader(refused: string[]): vega.Loader {
  const loader = vega.loader();
  const refuse = async (uri: string): Promise<never> => {
    refused.push(String(uri));
    throw new Error(`refused to load ${clip(String(uri), 100)}`);
  };
  loader.load = refuse;
  loader.http = refuse;
  loader.file = refuse;
  // Vega does not catch a rejected sanitize for links, so this one answers, with no href when refused.
  loader.sanitize = async (uri, options) => {
    const context = (options as { context?: string } | undefined)?.context;
    if (context === 'image' && EMBEDDED_RASTER.test(String(uri))) return { href: String(uri) };
    if (context !== 'href') refused.push(String(uri));
    return {} as { href: string };
  };
  return loader;
}

async function vegaToSvg(kind: 'vega-lite' | 'vega', json: Record<string, unknown>, warnings: string[]): Promise<{ svg: string; compileMs: number }> {
  const errors: string[] = [];
  const logger = collectingLogger(warnings, errors);
  const t0 = performance.now();
  let vg: vega.Spec;
  if (kind === 'vega-lite') {
    try {
      vg = vegaLite.compile(json as unknown as vegaLite.TopLevelSpec, { logger: logger as never }).spec;
    } catch (err) {
      throw new RenderError('invalid_spec', `Vega-Lite could not compile the spec: ${clip((err as Error).message)}`);
    }
  } else {
    vg = json as vega.Spec;
  }
  let runtime: vega.Runtime;
  try {
    runtime = vega.parse(vg);
  } catch (err) {
    throw new RenderError('invalid_spec', `Vega could not parse the spec: ${clip((err as Error).message)}`);
  }
  const compileMs = performance.now() - t0;
  const refused: string[] = [];
  let view: vega.View | undefined;
  try {
    view = new vega.View(runtime, { renderer: 'none', loader: closedLoader(refused), logger: logger as never, logLevel: vega.Warn });
    await view.runAsync();
    const svg = await view.toSVG();
    if (refused.length) {
      throw new RenderError(
        'external_data',
        `The spec asks to load ${clip(refused[0]!, 100)}: this gateway loads no URL for a spec (it would fetch from inside its own network, SSRF). Put the data inline as "values" (images as data:image/png;base64,…).`,
      );
    }
    if (errors.length) throw new RenderError('invalid_spec', `Vega could not run the spec: ${errors[0]}`);
    return { svg, compileMs };
  } catch (err) {
    if (err instanceof RenderError) throw err;
    throw new RenderError('invalid_spec', `Vega could not run the spec: ${clip((err as Error).message)}`);
  } finally {
    view?.finalize(); // timers and listeners a spec's signals started
  }
}

// ---- The SVG guard -----------------------------------------------------------------------------------------

const decodeEntities = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|lt|gt|amp|quot|apos);/gi, (m, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return codePoint(Number.parseInt(lower.slice(2), 16), m);
    if (lower.startsWith('#')) return codePoint(Number.parseInt(lower.slice(1), 10), m);
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[lower] ?? m;
  });
const codePoint = (n: number, fallback: string): string => (n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : fallback);

/** Every `…href="…"` attribute (any prefix: href, xlink:href, x:href), with where it starts. */
const HREF = /href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const HREF_ANY = /href\s*=/gi;
/** A start tag of an `a` element (any prefix) up to the attribute: well-formed attributes only. */
const ANCHOR_TAG = /^<(?:[\w.-]+:)?a(?:\s+[\w.:-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s+(?:[\w.-]+:)?$/;
const CSS_URL = /url\s*\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\)/gi;

const tooLarge = (what: string, w: number, h: number): RenderError =>
  new RenderError(
    'too_large',
    `${what} is ${w}×${h} pixels; the limit is ${LIMITS.maxSide} on a side and ${LIMITS.maxPixels / 1024 / 1024} MP in all (${LIMITS.maxPixels} pixels).`,
  );

const overCaps = (w: number, h: number): boolean => w > LIMITS.maxSide || h > LIMITS.maxSide || w * h > LIMITS.maxPixels;

/** An embedded raster image: its declared type must be what the bytes are, and its size within the caps. */
function checkEmbedded(uri: string): void {
  const m = EMBEDDED_RASTER.exec(uri)!;
  const declared = m[1] === 'jpg' ? 'jpeg' : m[1];
  const info = imageInfo(Buffer.from(uri.slice(m[0].length), 'base64'));
  if (!info || info.contentType !== `image/${declared}`) {
    throw new RenderError('invalid_svg', `An embedded image says it is image/${m[1]} but is ${info ? info.contentType : 'not a PNG, JPEG, GIF or WebP image'}.`);
  }
  if (overCaps(info.width, info.height)) throw tooLarge('An embedded image', info.width, info.height);
}

const externalRef = (ref: string): RenderError =>
  new RenderError(
    'external_reference',
    `The SVG refers to ${clip(JSON.stringify(ref), 100)}: only its own fragments ("#id") and embedded PNG, JPEG, GIF or WebP images (data:image/png;base64,…) are rendered; nothing is loaded from a URL or a file.`,
  );

/**
 * Refuses what would make resvg read anything but the SVG text: entity declarations (they could spell a path
 * past this check), hrefs other than fragments and embedded raster images (links on `<a>` are harmless), CSS
 * `url()` other than fragments and embedded images, `@import`. Over-inclusive on purpose: text that merely
 * looks like an href is refused too.
 */
export function checkSvg(svg: string): void {
  if (/<!ENTITY/i.test(svg)) throw new RenderError('external_reference', 'The SVG declares entities (<!ENTITY>), which are not accepted.');
  let quoted = 0;
  for (const m of svg.matchAll(HREF)) {
    quoted++;
    const value = decodeEntities(m[1] ?? m[2] ?? '');
    if (value === '' || value.startsWith('#')) continue;
    if (EMBEDDED_RASTER.test(value)) {
      checkEmbedded(value);
      continue;
    }
    const start = svg.lastIndexOf('<', m.index);
    if (start >= 0 && ANCHOR_TAG.test(svg.slice(start, m.index))) continue; // a link: resvg never follows it
    throw externalRef(value);
  }
  if ((svg.match(HREF_ANY)?.length ?? 0) !== quoted) throw new RenderError('invalid_svg', 'The SVG has an href attribute without a quoted value.');
  const decoded = decodeEntities(svg);
  if (/@import/i.test(decoded)) throw new RenderError('external_reference', 'The SVG imports a style sheet (@import), which is not accepted.');
  for (const m of decoded.matchAll(CSS_URL)) {
    const value = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (value.startsWith('#')) continue;
    if (EMBEDDED_RASTER.test(value)) {
      checkEmbedded(value);
      continue;
    }
    throw externalRef(value);
  }
}

// ---- SVG to PNG --------------------------------------------------------------------------------------------

export function rasterise(svg: string, scale: number): { png: Buffer; width: number; height: number } {
  checkSvg(svg);
  let r: Resvg;
  try {
    r = new Resvg(svg, { font: fontsFor(svg), fitTo: scale === 1 ? { mode: 'original' } : { mode: 'zoom', value: scale }, logLevel: 'off' });
  } catch (err) {
    const why = (err as Error).message.replace(/^SVG data parsing failed cause /, '');
    throw new RenderError(/nodes limit/.test(why) ? 'too_large' : 'invalid_svg', `The SVG does not parse: ${clip(why)}.`);
  }
  // The pixmap resvg would allocate: the SVG's size times the scale, rounded up.
  const width = Math.ceil(r.width * scale);
  const height = Math.ceil(r.height * scale);
  if (!(width >= 1 && height >= 1)) throw new RenderError('invalid_svg', `The image would be ${width}×${height} pixels: nothing to draw.`);
  if (overCaps(width, height)) throw tooLarge(`The image${scale === 1 ? '' : ` at scale ${scale}`}`, width, height);
  const image = r.render();
  const png = image.asPng();
  if (png.length > LIMITS.maxPngBytes) {
    throw new RenderError('too_large', `The PNG is ${png.length} bytes; the limit is ${LIMITS.maxPngBytes} (${LIMITS.maxPngBytes / 1024 / 1024} MB). Draw it smaller or simpler.`);
  }
  return { png, width: image.width, height: image.height };
}

// ---- The whole render --------------------------------------------------------------------------------------

export async function render(req: RenderRequest): Promise<RenderReply> {
  try {
    const size = typeof req.spec === 'string' ? req.spec.length : JSON.stringify(req.spec).length;
    if (size > LIMITS.maxSpecChars) throw new RenderError('too_large', `spec is ${size} characters; the limit is ${LIMITS.maxSpecChars}.`);
    const spec = readSpec(req.spec);
    const warnings: string[] = [];
    const t0 = performance.now();
    let svg: string;
    let compileMs = 0;
    if (spec.kind === 'svg') svg = spec.svg;
    else ({ svg, compileMs } = await vegaToSvg(spec.kind, spec.json, warnings));
    const t1 = performance.now();
    const { png, width, height } = rasterise(svg, req.scale);
    const ms = { compile: compileMs, svg: t1 - t0 - compileMs, raster: performance.now() - t1 };
    return { ok: true, png: new Uint8Array(png.buffer, png.byteOffset, png.length), width, height, kind: spec.kind satisfies SpecKind, warnings, ms };
  } catch (err) {
    if (err instanceof RenderError) return { ok: false, reason: err.reason, message: err.message };
    // Whatever else a spec makes Vega or resvg throw is still the spec's doing.
    return { ok: false, reason: 'invalid_spec', message: `The spec could not be rendered: ${clip((err as Error)?.message ?? String(err))}` };
  }
}
