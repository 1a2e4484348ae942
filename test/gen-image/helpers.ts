// For the gen_image tests: a loopback OpenAI-compatible images endpoint, MCP clients that pay with an API key
// (the official v2 SDK over Streamable HTTP in either era, and over stdio on the built entry), free keys and
// their gen_image usage, and PNG reading.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Resvg } from '@resvg/resvg-js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { api, storeEnv } from '../helpers/gateway.js';
import { MAIN } from '../helpers/paths.js';
import { MODES, type Mode } from '../verbs/clients.js';

export const IMAGE_KEY = 'sk-image-test-key-9f3a1c7e5b2d';
export const IMAGE_MODEL = 'test-image-model';

/** A real PNG of w×h: a blue rectangle. */
export const samplePng = (w: number, h: number): Buffer =>
  new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#2a6"/></svg>`).render().asPng();

export interface ImagesEndpoint {
  /** The base URL to configure as IMAGE_BASE_URL (ends in /v1). */
  baseUrl: string;
  /** Every /v1/images/generations request: its Authorization header and JSON body. */
  requests: { authorization?: string; body: any }[];
  close(): Promise<void>;
}

/**
 * Speaks POST /v1/images/generations: refuses a wrong bearer key (401) and a body without model, prompt or a
 * numeric n; answers n PNGs of the asked size (default 64x48) as b64_json with a revised_prompt. Prompts steer
 * it: "fail500" → 500, "refuse400" → 400 whose message quotes the key, "by-url" → url answers served here,
 * "not-an-image" → b64 of text.
 */
export async function startImagesEndpoint(): Promise<ImagesEndpoint> {
  const requests: ImagesEndpoint['requests'] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && req.url?.startsWith('/files/')) {
      const [w, h] = req.url.slice('/files/'.length).replace('.png', '').split('x').map(Number);
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(samplePng(w!, h!));
    }
    if (req.method !== 'POST' || req.url !== '/v1/images/generations') return json(404, { error: { message: 'no such route' } });
    let raw = '';
    req.setEncoding('utf8').on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        return json(400, { error: { message: 'body is not JSON' } });
      }
      requests.push({ authorization: req.headers.authorization, body });
      if (req.headers.authorization !== `Bearer ${IMAGE_KEY}`) return json(401, { error: { message: 'Incorrect API key provided.' } });
      if (typeof body.model !== 'string' || typeof body.prompt !== 'string' || typeof body.n !== 'number') return json(400, { error: { message: 'model, prompt and n are required' } });
      const prompt: string = body.prompt;
      if (prompt.includes('fail500')) return json(500, { error: { message: `internal trouble with key ${IMAGE_KEY}` } });
      if (prompt.includes('refuse400')) return json(400, { error: { message: `Your request was rejected by the safety system (key ${IMAGE_KEY}).`, type: 'invalid_request_error' } });
      const [w, h] = typeof body.size === 'string' && /^\d+x\d+$/.test(body.size) ? body.size.split('x').map(Number) : [64, 48];
      const data = Array.from({ length: body.n }, (_, i) => {
        if (prompt.includes('by-url')) return { url: `${base}/files/${w}x${h}.png` };
        if (prompt.includes('not-an-image')) return { b64_json: Buffer.from('hello, not an image').toString('base64') };
        return { b64_json: samplePng(w + i, h).toString('base64'), revised_prompt: `A careful drawing of ${prompt}` };
      });
      json(200, { created: 1_700_000_000, data });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl: `${base}/v1`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

// ---- MCP clients ---------------------------------------------------------------------------------------------

export interface Block {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
}

export interface Result {
  isError?: boolean;
  structuredContent?: any;
  content: Block[];
}

export interface ImageClient {
  call(args: Record<string, unknown>): Promise<Result>;
  listTools(): Promise<{ name: string; outputSchema?: Record<string, unknown>; annotations?: Record<string, unknown> }[]>;
  close(): Promise<void>;
  /** The gateway's process id, over stdio. */
  pid?: number | null;
}

const wrap = (c: Client, pid?: () => number | null): ImageClient => ({
  call: async (args) => (await c.callTool({ name: 'gen_image', arguments: args })) as Result,
  listTools: async () => (await c.listTools()).tools as { name: string; outputSchema?: Record<string, unknown> }[],
  close: () => c.close(),
  ...(pid ? { get pid() { return pid(); } } : {}),
});

/** The v2 SDK over Streamable HTTP in `mode`, sending the API key as X-API-Key when given. */
export async function httpImageClient(url: string, mode: Mode, key?: string): Promise<ImageClient> {
  const c = new Client({ name: 'gen-image-test', version: '1' }, { versionNegotiation: { mode: MODES[mode] } });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: key ? { 'x-api-key': key } : {} } }));
  return wrap(c);
}

/** The v2 SDK pinned to 2026-07-28 over stdio on the built entry, paying with GATEWAY_API_KEY. */
export async function stdioImageClient(dataDir: string, key: string, env: Record<string, string> = {}): Promise<ImageClient> {
  const c = new Client({ name: 'gen-image-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn', GATEWAY_API_KEY: key, ...env },
    stderr: 'pipe',
  });
  await c.connect(transport);
  return wrap(c, () => transport.pid);
}

/** The error body of an isError result: {error: {code, message, …}, detail?, status}. */
export const errorOf = (r: Result): { error: { code: string; message: string; reason?: string; upstream_status?: number }; detail?: { loc: unknown[]; msg: string; type: string }[]; status: number } => {
  if (!r.isError) throw new Error(`expected an error, got ${JSON.stringify(r.structuredContent)}`);
  return JSON.parse(r.content.find((b) => b.type === 'text')!.text!);
};

// ---- Keys ----------------------------------------------------------------------------------------------------

let emails = 0;

/** A free API key (gen_image allowance: 50 a month). */
export async function freeKey(url: string): Promise<string> {
  const r = await api(url, 'POST', '/keys/issue', { body: { email: `gen-image-${process.pid}-${++emails}@example.com` } });
  if (r.status !== 201) throw new Error(`keys/issue: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.key as string;
}

/** What this key has used this month: all calls, and gen_image's own allowance. */
export async function usage(url: string, key: string): Promise<{ used: number; genImage: number }> {
  const r = await api(url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } });
  if (r.status !== 200) throw new Error(`keys/usage: ${r.status} ${JSON.stringify(r.body)}`);
  return { used: r.body.used as number, genImage: r.body.per_tool.gen_image.used as number };
}

// ---- PNG -----------------------------------------------------------------------------------------------------

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR, after checking the signature; throws on anything else. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG signature');
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('no IHDR first');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The bytes of each image block of a result. */
export const imageBlocks = (r: Result): { bytes: Buffer; mimeType: string }[] =>
  r.content.filter((b) => b.type === 'image').map((b) => ({ bytes: Buffer.from(b.data!, 'base64'), mimeType: b.mimeType! }));
