// gen_image over stdio (the built entry) with the v2 SDK pinned to 2026-07-28, paying with GATEWAY_API_KEY: a
// chart and a prompt, their artifacts served by an HTTP gateway on the same data dir, and a failure not charged.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { errorOf, freeKey, IMAGE_KEY, IMAGE_MODEL, imageBlocks, pngSize, startImagesEndpoint, stdioImageClient, usage, type ImageClient, type ImagesEndpoint } from './helpers.js';

let endpoint: ImagesEndpoint;
let gw: TestGateway;
let key: string;
let c: ImageClient;
beforeAll(async () => {
  endpoint = await startImagesEndpoint();
  gw = await startGateway();
  key = await freeKey(gw.url);
  c = await stdioImageClient(gw.dataDir, key, { IMAGE_BASE_URL: endpoint.baseUrl, IMAGE_API_KEY: IMAGE_KEY, IMAGE_MODEL });
}, 60_000);
afterAll(async () => {
  await c?.close();
  await gw?.cleanup();
  await endpoint?.close();
});

const artifactBytes = async (id: string): Promise<Buffer> => Buffer.from(await (await fetch(`${gw.url}/artifacts/${id}`)).arrayBuffer());

it('renders a Vega-Lite chart and draws a prompt over stdio, charging the key', async () => {
  const before = await usage(gw.url, key);
  const chart = await c.call({ spec: { data: { values: [{ a: 'x', b: 1 }, { a: 'y', b: 2 }] }, mark: 'bar', encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } } } });
  expect(chart.isError).toBeFalsy();
  const [png] = imageBlocks(chart);
  expect(pngSize(png!.bytes)).toEqual({ width: chart.structuredContent.images[0].width, height: chart.structuredContent.images[0].height });
  expect((await artifactBytes(chart.structuredContent.images[0].artifact_id)).equals(png!.bytes)).toBe(true);

  const drawn = await c.call({ prompt: 'a small boat', size: '40x30' });
  expect(drawn.structuredContent).toMatchObject({ source: 'prompt', model: IMAGE_MODEL });
  expect(imageBlocks(drawn).map((b) => [b.mimeType, pngSize(b.bytes)])).toEqual([['image/png', { width: 40, height: 30 }]]);
  expect(endpoint.requests.at(-1)).toEqual({ authorization: `Bearer ${IMAGE_KEY}`, body: { model: IMAGE_MODEL, prompt: 'a small boat', n: 1, size: '40x30' } });

  expect(await usage(gw.url, key)).toEqual({ used: before.used + 2, genImage: before.genImage + 2 });
});

it('a bad spec and an upstream failure over stdio are errors that cost nothing', async () => {
  const before = await usage(gw.url, key);
  expect(errorOf(await c.call({ spec: 'not json' }))).toMatchObject({ status: 422, error: { reason: 'not_json' } });
  const e = errorOf(await c.call({ prompt: 'fail500' }));
  expect(e).toMatchObject({ status: 502, error: { code: 'upstream_error', upstream_status: 500 } });
  expect(JSON.stringify(e)).not.toContain(IMAGE_KEY);
  expect(await usage(gw.url, key)).toEqual(before);
});
