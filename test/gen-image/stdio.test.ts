// gen_image over stdio (the built entry) with the v2 SDK pinned to 2026-07-28, paying with GATEWAY_API_KEY: a
// chart and a prompt, their artifacts served by an HTTP gateway on the same data dir, and a failure not charged.
import fs from 'node:fs';
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

/** Processes whose parent is `ppid`, with their command line and environment (Linux /proc). */
function childrenOf(ppid: number): { pid: string; cmdline: string[]; environ: string[] }[] {
  return fs.readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== ppid) return [];
      const list = (f: string) => fs.readFileSync(`/proc/${pid}/${f}`, 'utf8').split('\0').filter(Boolean);
      return [{ pid, cmdline: list('cmdline'), environ: list('environ') }];
    } catch {
      return []; // gone meanwhile
    }
  });
}

it.runIf(process.platform === 'linux')('the built gateway renders in a child process under Node’s permission model, with no secret in its environment', () => {
  const renderers = childrenOf(c.pid!).filter((p) => p.cmdline.some((a) => a.endsWith('render-process.js')));
  expect(renderers.length).toBeGreaterThan(0);
  for (const p of renderers) {
    expect(p.cmdline.some((a) => a === '--permission' || a === '--experimental-permission')).toBe(true);
    expect(p.cmdline).toContain('--allow-addons');
    const reads = p.cmdline.filter((a) => a.startsWith('--allow-fs-read=')).map((a) => a.slice('--allow-fs-read='.length));
    expect(reads).toEqual([expect.stringMatching(/dist\/tools\/gen-image$/), expect.stringMatching(/node_modules$/)]);
    expect(p.cmdline.some((a) => a.startsWith('--allow-fs-write') || a.startsWith('--allow-child-process'))).toBe(false);
    // PATH, and the IPC channel fork() adds.
    expect(p.environ.map((e) => e.split('=')[0]).filter((k) => !k.startsWith('NODE_CHANNEL_'))).toEqual(['PATH']);
    expect(p.environ.join('\n')).not.toContain(IMAGE_KEY);
  }
});
