// The gen_image verb over MCP with the official v2 SDK in both eras over Streamable HTTP: specs rendered here
// (Vega-Lite, Vega, SVG) and prompts drawn by a loopback images endpoint, each image as image content and as an
// artifact the gateway serves; bad specs are 422, upstream failures 502, and no failure is charged.
import { Resvg } from '@resvg/resvg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genImage } from '../../tools/gen-image/index.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { MODES, type Mode } from '../verbs/clients.js';
import {
  errorOf,
  freeKey,
  httpImageClient,
  IMAGE_KEY,
  IMAGE_MODEL,
  imageBlocks,
  pngSize,
  samplePng,
  startImagesEndpoint,
  usage,
  type ImageClient,
  type ImagesEndpoint,
  type Result,
} from './helpers.js';

let endpoint: ImagesEndpoint;
let gw: TestGateway;
beforeAll(async () => {
  endpoint = await startImagesEndpoint();
  gw = await startGateway({
    env: {
      IMAGE_BASE_URL: endpoint.baseUrl,
      IMAGE_API_KEY: IMAGE_KEY,
      IMAGE_MODEL,
      GATEWAY_EGRESS_ALLOW: '127.0.0.1/32',
      GATEWAY_KEYS_PER_CLIENT_PER_DAY: '100',
    },
  });
});
afterAll(async () => {
  await gw?.cleanup();
  await endpoint?.close();
});

const BAR_CHART = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  title: 'Sales by quarter',
  data: { values: [{ q: 'Q1', v: 28 }, { q: 'Q2', v: 55 }, { q: 'Q3', v: 43 }, { q: 'Q4', v: 91 }] },
  mark: 'bar',
  encoding: { x: { field: 'q', type: 'nominal' }, y: { field: 'v', type: 'quantitative' } },
};

/** A Vega spec drawing exactly 200×100 pixels (no padding, no autosize). */
const VEGA_SPEC = {
  $schema: 'https://vega.github.io/schema/vega/v6.json',
  width: 200,
  height: 100,
  padding: 0,
  autosize: 'none',
  data: [{ name: 't', values: [{ x: 'a', y: 3 }, { x: 'b', y: 7 }] }],
  scales: [
    { name: 'x', type: 'band', domain: { data: 't', field: 'x' }, range: 'width' },
    { name: 'y', domain: { data: 't', field: 'y' }, range: 'height' },
  ],
  marks: [
    {
      type: 'rect',
      from: { data: 't' },
      encode: { enter: { x: { scale: 'x', field: 'x' }, width: { scale: 'x', band: 1 }, y: { scale: 'y', field: 'y' }, y2: { scale: 'y', value: 0 }, fill: { value: '#c00' } } },
    },
  ],
};

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#ff0000"/></svg>';

/** RGBA pixels of a PNG, decoded by resvg drawing it as an embedded image at its own size. */
function pixelsOf(png: Buffer): { width: number; at(x: number, y: number): number[] } {
  const { width, height } = pngSize(png);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  const pixels = new Resvg(svg).render().pixels;
  return { width, at: (x, y) => [...pixels.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)] };
}

/** The one image of a successful result: its bytes, checked against the structured result and the artifact. */
async function theImage(r: Result): Promise<{ png: Buffer; width: number; height: number }> {
  expect(r.isError).toBeFalsy();
  const out = genImage.output!.parse(r.structuredContent) as { images: { url: string; artifact_id: string; content_type: string; bytes: number; width: number; height: number }[] };
  const blocks = imageBlocks(r);
  expect(blocks).toHaveLength(1);
  expect(out.images).toHaveLength(1);
  const [block] = blocks;
  const [meta] = out.images;
  expect(block!.mimeType).toBe('image/png');
  expect(meta!.content_type).toBe('image/png');
  expect(pngSize(block!.bytes)).toEqual({ width: meta!.width, height: meta!.height });
  expect(meta!.bytes).toBe(block!.bytes.length);
  // The artifact URL serves the same bytes, from the gateway.
  expect(meta!.url).toBe(`${gw.url}/artifacts/${meta!.artifact_id}`);
  const served = await fetch(meta!.url);
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer()).equals(block!.bytes)).toBe(true);
  return { png: block!.bytes, width: meta!.width, height: meta!.height };
}

describe.each(Object.keys(MODES) as Mode[])('gen_image, %s', (mode) => {
  let key: string;
  let c: ImageClient;
  beforeAll(async () => {
    key = await freeKey(gw.url);
    c = await httpImageClient(gw.url, mode, key);
  });
  afterAll(async () => c?.close());

  it('is listed as a verb with an outputSchema', async () => {
    const tool = (await c.listTools()).find((t) => t.name === 'gen_image');
    expect(tool?.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['source', 'images', 'warnings']) });
  });

  it('renders a Vega-Lite bar chart to a PNG, charged once', async () => {
    const before = await usage(gw.url, key);
    const r = await c.call({ spec: BAR_CHART });
    const img = await theImage(r);
    expect(img.width).toBeGreaterThan(50);
    expect(img.height).toBeGreaterThan(50);
    expect(r.structuredContent).toMatchObject({ source: 'spec', spec_type: 'vega-lite', warnings: [] });
    expect(await usage(gw.url, key)).toEqual({ used: before.used + 1, genImage: before.genImage + 1 });
    // The same chart as JSON text, twice the size.
    const twice = await theImage(await c.call({ spec: JSON.stringify(BAR_CHART), scale: 2 }));
    expect(twice.width).toBe(img.width * 2);
    expect(twice.height).toBe(img.height * 2);
  });

  it('renders a Vega spec at its own size', async () => {
    const r = await c.call({ spec: VEGA_SPEC });
    const img = await theImage(r);
    expect(img).toMatchObject({ width: 200, height: 100 });
    expect(r.structuredContent.spec_type).toBe('vega');
    // The taller bar (b, 7 of 7) fills its band to the top; the left band (a, 3 of 7) leaves the top empty.
    const px = pixelsOf(img.png);
    expect(px.at(150, 5)).toEqual([204, 0, 0, 255]);
    expect(px.at(50, 5)[3]).toBe(0);
  });

  it('renders an SVG, and its text with the bundled fonts', async () => {
    const r = await c.call({ spec: SVG });
    const img = await theImage(r);
    expect(img).toMatchObject({ width: 120, height: 80 });
    expect(r.structuredContent.spec_type).toBe('svg');
    expect(pixelsOf(img.png).at(60, 40)).toEqual([255, 0, 0, 255]);
    const text = await theImage(
      await c.call({
        spec: '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><rect width="200" height="40" fill="white"/><text x="5" y="30" font-family="sans-serif" font-size="28">Hello</text></svg>',
      }),
    );
    const px = pixelsOf(text.png);
    let ink = 0;
    for (let y = 0; y < 40; y++) for (let x = 0; x < 200; x++) if (px.at(x, y)[0]! < 128) ink++;
    expect(ink).toBeGreaterThan(100); // glyphs drawn: there is a font even with no system fonts loaded
  });

  it('draws a prompt through the images endpoint: image content and an artifact, charged once', async () => {
    const before = await usage(gw.url, key);
    const seen = endpoint.requests.length;
    const r = await c.call({ prompt: `a lighthouse at dusk (${mode})`, size: '96x64' });
    const img = await theImage(r);
    expect(img).toMatchObject({ width: 96, height: 64 });
    expect(r.structuredContent).toMatchObject({ source: 'prompt', model: IMAGE_MODEL, images: [{ revised_prompt: `A careful drawing of a lighthouse at dusk (${mode})` }] });
    expect(endpoint.requests.slice(seen)).toEqual([
      { authorization: `Bearer ${IMAGE_KEY}`, body: { model: IMAGE_MODEL, prompt: `a lighthouse at dusk (${mode})`, n: 1, size: '96x64' } },
    ]);
    expect(await usage(gw.url, key)).toEqual({ used: before.used + 1, genImage: before.genImage + 1 });
  });

  it('n images, and images the endpoint answers by URL (fetched through egress)', async () => {
    const two = await c.call({ prompt: 'two gulls', n: 2 });
    expect(two.isError).toBeFalsy();
    expect(imageBlocks(two).map((b) => pngSize(b.bytes))).toEqual([{ width: 64, height: 48 }, { width: 65, height: 48 }]);
    expect(two.structuredContent.images.map((i: { width: number }) => i.width)).toEqual([64, 65]);
    const byUrl = await theImage(await c.call({ prompt: 'by-url harbour', size: '32x16' }));
    expect(byUrl).toMatchObject({ width: 32, height: 16 });
    expect(byUrl.png.equals(samplePng(32, 16))).toBe(true);
  });

  it('an upstream failure is a 502 with its status, without the key, and not charged', async () => {
    const before = await usage(gw.url, key);
    const e500 = errorOf(await c.call({ prompt: 'fail500 please' }));
    expect(e500).toMatchObject({ status: 502, error: { code: 'upstream_error', upstream_status: 500 } });
    const e400 = errorOf(await c.call({ prompt: 'refuse400 please' }));
    expect(e400).toMatchObject({ status: 502, error: { code: 'upstream_error', upstream_status: 400 } });
    expect(e400.error.message).toContain('rejected by the safety system');
    const junk = errorOf(await c.call({ prompt: 'not-an-image' }));
    expect(junk).toMatchObject({ status: 502, error: { code: 'upstream_error', reason: 'not_an_image' } });
    for (const e of [e500, e400, junk]) expect(JSON.stringify(e)).not.toContain(IMAGE_KEY);
    expect(await usage(gw.url, key)).toEqual(before);
  });

  it('bad specs are 422 naming spec and the reason, and not charged', async () => {
    const before = await usage(gw.url, key);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ spec: '{"mark": "bar",' }, 'not_json', /neither SVG .* nor JSON/],
      [{ spec: { hello: 'world' } }, 'unknown_spec', /neither Vega-Lite .* nor Vega/],
      [{ spec: { mark: 'sparkle', data: { values: [] } } }, 'invalid_spec', /Vega-Lite could not compile/],
      [{ spec: { $schema: 'https://vega.github.io/schema/vega/v6.json', signals: [{ name: 's', update: 'nosuchfn(1)' }] } }, 'invalid_spec', /Vega could not parse.*nosuchfn/],
      [{ spec: '<svg xmlns="http://www.w3.org/2000/svg"><rect' }, 'invalid_svg', /does not parse/],
      [{ spec: '<svg xmlns="http://www.w3.org/2000/svg" width="5000" height="300"/>' }, 'too_large', /5000×300 pixels; the limit is 4096/],
      [{ spec: SVG, scale: 4 }, 'ok', /./], // 480×320: within the caps
      [{ spec: { ...BAR_CHART, width: 4200 } }, 'too_large', /the limit is 4096/],
    ];
    let charged = 0;
    for (const [args, reason, message] of cases) {
      const r = await c.call(args);
      if (reason === 'ok') {
        expect(r.isError).toBeFalsy();
        charged++;
        continue;
      }
      const e = errorOf(r);
      expect(e, JSON.stringify(args)).toMatchObject({ status: 422, error: { code: 'validation_error', reason }, detail: [{ loc: ['spec'], type: reason }] });
      expect(e.error.message).toMatch(message);
    }
    expect(await usage(gw.url, key)).toEqual({ used: before.used + charged, genImage: before.genImage + charged });
  });

  it('refuses data and images from URLs (SSRF) and SVG references to files', async () => {
    const before = await usage(gw.url, key);
    const urlData = errorOf(await c.call({ spec: { ...BAR_CHART, data: { url: 'http://169.254.169.254/latest/meta-data/' } } }));
    expect(urlData).toMatchObject({ status: 422, error: { reason: 'external_data' } });
    expect(urlData.error.message).toMatch(/169\.254\.169\.254.*SSRF.*inline as "values"/);
    const file = errorOf(await c.call({ spec: { marks: [], data: [{ name: 'd', url: 'file:///etc/passwd' }] } }));
    expect(file).toMatchObject({ status: 422, error: { reason: 'external_data' } });
    const image = errorOf(
      await c.call({ spec: { width: 50, height: 50, marks: [{ type: 'image', encode: { enter: { url: { value: 'http://127.0.0.1:9/x.png' }, width: { value: 9 }, height: { value: 9 } } } }] } }),
    );
    expect(image).toMatchObject({ status: 422, error: { reason: 'external_data' } });
    for (const href of ['/etc/hostname', 'file:///etc/hostname', 'http://127.0.0.1:9/a.png', 'data:image/svg+xml;base64,PHN2Zy8+']) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="${href}" width="10" height="10"/></svg>`;
      expect(errorOf(await c.call({ spec: svg })), href).toMatchObject({ status: 422, error: { reason: 'external_reference' } });
    }
    expect(await usage(gw.url, key)).toEqual(before);
  });

  it('asks for exactly one of spec and prompt, and keeps size, n and scale to their side', async () => {
    for (const [args, field] of [
      [{}, 'spec'],
      [{ spec: SVG, prompt: 'a cat' }, 'spec'],
      [{ spec: SVG, n: 2 }, 'n'],
      [{ spec: SVG, size: '1024x1024' }, 'size'],
      [{ prompt: 'a cat', scale: 2 }, 'scale'],
      [{ prompt: 'a cat', size: 'huge' }, 'size'],
      [{ prompt: 'a cat', n: 9 }, 'n'],
    ] as [Record<string, unknown>, string][]) {
      const e = errorOf(await c.call(args));
      expect(e, JSON.stringify(args)).toMatchObject({ status: 422, error: { code: 'validation_error' } });
      expect(e.detail![0]!.loc.at(-1)).toBe(field);
    }
  });
});

describe('gen_image elsewhere', () => {
  /** A gateway of its own (without the images endpoint), with a free key and an MCP client. */
  async function withOwnGateway(env: Record<string, string>, fn: (c: ImageClient, url: string, key: string) => Promise<void>): Promise<void> {
    const own = await startGateway({ env });
    try {
      const key = await freeKey(own.url);
      const c = await httpImageClient(own.url, 'v2 pinned to 2026-07-28', key);
      try {
        await fn(c, own.url, key);
      } finally {
        await c.close();
      }
    } finally {
      await own.cleanup();
    }
  }

  it('a prompt on a gateway without an images endpoint says what to set, and costs nothing', async () => {
    await withOwnGateway({}, async (c, url, key) => {
      const before = await usage(url, key);
      const e = errorOf(await c.call({ prompt: 'a lighthouse' }));
      expect(e).toMatchObject({ status: 422, error: { code: 'validation_error', reason: 'not_configured' }, detail: [{ loc: ['prompt'], type: 'not_configured' }] });
      expect(e.error.message).toMatch(/IMAGE_BASE_URL.*IMAGE_API_KEY.*IMAGE_MODEL/);
      expect(await usage(url, key)).toEqual(before);
      // Charts need no endpoint.
      expect((await c.call({ spec: SVG })).isError).toBeFalsy();
      expect(await usage(url, key)).toEqual({ used: before.used + 1, genImage: before.genImage + 1 });
    });
  });

  it('is paid: without a key or payment it answers 402', async () => {
    const c = await httpImageClient(gw.url, 'v2 pinned to 2026-07-28');
    try {
      const r = await c.call({ spec: SVG });
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.content)).toMatch(/402|Payment required/i);
    } finally {
      await c.close();
    }
  });

  it('is not at POST /tools/gen_image', async () => {
    const key = await freeKey(gw.url);
    const r = await api(gw.url, 'POST', '/tools/gen_image', { headers: { 'x-api-key': key }, body: { spec: SVG } });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });

  // Allocates until the render process's heap cap: about 1.5-3 s on an idle machine, more under load.
  const BOMB = { $schema: 'https://vega.github.io/schema/vega/v6.json', data: [{ name: 'rows', transform: [{ type: 'sequence', start: 0, stop: 1e9 }] }], marks: [] };

  it('a spec that needs too much memory is a 422, a third render at once is a 429, and the next render works', async () => {
    // Time enough for the heap cap to be reached first however busy the machine is.
    await withOwnGateway({ GATEWAY_IMAGE_RENDER_SECONDS: '300' }, async (c, url, key) => {
      const before = await usage(url, key);
      // Each bomb takes seconds to reach the heap cap: the third call arrives while two of this key's are in flight.
      const errors = (await Promise.all([1, 2, 3].map(() => c.call({ spec: BOMB })))).map(errorOf);
      expect(errors.map((e) => `${e.status} ${e.error.reason ?? e.error.code}`).sort()).toEqual(['422 render_memory', '422 render_memory', '429 rate_limited']);
      expect(await usage(url, key)).toEqual(before);
      expect(pngSize(imageBlocks(await c.call({ spec: SVG }))[0]!.bytes)).toEqual({ width: 120, height: 80 });
    });
  });

  it('a render past GATEWAY_IMAGE_RENDER_SECONDS is a 422 render_timeout naming the limit, costs nothing, and the next render works', async () => {
    // A regular expression that backtracks for hours on one row: time, not memory.
    const redos = {
      $schema: 'https://vega.github.io/schema/vega/v6.json',
      data: [{ name: 'rows', transform: [{ type: 'sequence', start: 0, stop: 1 }, { type: 'formula', as: 't', expr: `test(regexp('^(a+)+$'), '${'a'.repeat(44)}!')` }] }],
      marks: [],
    };
    // Three seconds: the expression never ends, and the next render, in a fresh render process, has time on a busy machine.
    await withOwnGateway({ GATEWAY_IMAGE_RENDER_SECONDS: '3' }, async (c, url, key) => {
      const before = await usage(url, key);
      const e = errorOf(await c.call({ spec: redos }));
      expect(e).toMatchObject({ status: 422, error: { code: 'validation_error', reason: 'render_timeout' }, detail: [{ loc: ['spec'], type: 'render_timeout' }] });
      expect(e.error.message).toContain('longer than 3 s');
      expect(await usage(url, key)).toEqual(before);
      expect(pngSize(imageBlocks(await c.call({ spec: SVG }))[0]!.bytes)).toEqual({ width: 120, height: 80 });
    });
  });
});
