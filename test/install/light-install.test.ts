// Issue 44: the light install, made exactly as a user makes it (npm pack, then npm install of the tarball into an
// empty folder: light-install.ts), then the installed package's bin: `serve` (REST, MCP over Streamable HTTP and
// legacy SSE, A2A, OAuth at /mcp/agent, the chat endpoint, the commercial listener, the console) and `mcp` over stdio
// with the official SDK client. Memory, identity, the wall, jobs and calculators work from it; each optional engine's
// service answers 503 engine_not_installed naming its packages and the command that installs them, and charges
// nothing. Skipped only when the npm registry cannot be reached, and then it says so.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from '../../src/engines.js';
import { eventually } from '../helpers/eventually.js';
import { api, register, storeEnv } from '../helpers/gateway.js';
import { cleanEnv, lightInstall, registryReachable, serveInstalled, type LightInstall, type Served } from './light-install.js';

const OPERATOR = 'light-install-operator-token-0123456789';
const reach = await registryReachable();
if (!reach.ok) console.warn(`test/install/light-install.test.ts SKIPPED: the npm registry cannot be reached (${reach.why}).`);

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: any;
}
/** The error body of an isError tool result. */
const errorOf = (r: ToolResult): { error: { code: string; message: string; packages: string[]; install: string }; status: number } => {
  if (!r.isError) throw new Error(`expected an error, got ${JSON.stringify(r.structuredContent ?? r.content)}`);
  return JSON.parse(r.content.find((b) => b.type === 'text')!.text!);
};

/** The 503 every missing engine answers: its code, its packages and the command, in the body. */
const engineMissing = (engine: EngineName) =>
  expect.objectContaining({
    code: 'engine_not_installed',
    packages: [...ENGINES[engine].packages],
    install: expect.stringMatching(new RegExp(`^npm install (--force )?${ENGINES[engine].packages[0]!.replace(/[/.]/g, '\\$&')}@`)),
    message: expect.stringContaining('Nothing was charged'),
  });

describe.skipIf(!reach.ok)('the light install (npm pack, npm install <tarball>)', () => {
  let install: LightInstall;
  let gw: Served;
  let dataDir: string;
  let agent: { handle: string; secret: string };
  let key: string;

  beforeAll(async () => {
    install = await lightInstall();
    dataDir = path.join(install.dir, 'data');
    gw = await serveInstalled(install, { GATEWAY_DATA_DIR: dataDir, GATEWAY_OPERATOR_TOKEN: OPERATOR, STRIPE_SECRET_KEY: 'sk_test_light_install_check', ...storeEnv(dataDir) });
    agent = await register(gw.url, 'light-installer');
    key = (await api(gw.url, 'POST', '/keys/issue', { body: { email: 'light-install@example.com' } })).body.key;
  }, 900_000);
  afterAll(async () => {
    await gw?.stop();
    install?.cleanup();
  });

  const used = async (): Promise<number> => (await api(gw.url, 'GET', '/keys/usage', { headers: { 'x-api-key': key } })).body.used;

  it('installs no optional engine, and the files the runtime reads', () => {
    const modules = path.join(install.dir, 'node_modules');
    const present = Object.values(ENGINES).flatMap((e) => e.packages.filter((p) => fs.existsSync(path.join(modules, p))));
    expect(present).toEqual([]);
    const pkg = path.join(modules, 'agent-gateway');
    const sql = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
    expect(sql(path.join(pkg, 'src/store/migrations'))).toEqual(sql(path.resolve('src/store/migrations')));
    expect(sql(path.join(pkg, 'src/store/pg-migrations'))).toEqual(sql(path.resolve('src/store/pg-migrations')));
    expect(fs.existsSync(path.join(pkg, 'resources/content/services.json'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'resources/views/memory-graph.html'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'tools/commercial/review/secrets/gitleaks-rules.json'))).toBe(true);
    // Neither the tests nor the TypeScript sources ship.
    expect(fs.existsSync(path.join(pkg, 'test'))).toBe(false);
    expect(fs.existsSync(path.join(pkg, 'src/app.ts'))).toBe(false);
  });

  it('memory and identity: register, put, get, search', async () => {
    const put = await api(gw.url, 'PUT', '/memory/notes/plan', { secret: agent.secret, body: { value: { goal: 'ship the light install' }, tags: ['todo'] } });
    expect(put.status).toBe(200);
    expect((await api(gw.url, 'GET', '/memory/notes/plan', { secret: agent.secret })).body).toMatchObject({ value: { goal: 'ship the light install' }, version: 1 });
    const found = await api(gw.url, 'GET', '/memory/search?q=light+install', { secret: agent.secret });
    expect(found.body.results.map((r: { key: string }) => r.key)).toContain('plan');
    expect((await api(gw.url, 'GET', `/identity/${agent.handle}`)).status).toBe(200);
  });

  it('the wall: a post, read back by its topic', async () => {
    const post = await api(gw.url, 'POST', '/wall', { secret: agent.secret, body: { text: 'installed light #lightinstall', kind: 'result' } });
    expect(post.status).toBe(201);
    const wall = await api(gw.url, 'GET', '/wall?topic=lightinstall');
    expect(wall.body.posts.map((p: { post_id: number }) => p.post_id)).toContain(post.body.post_id);
  });

  it('a job runs to its end', async () => {
    const job = await api(gw.url, 'POST', '/jobs', { secret: agent.secret, body: { type: 'delay', seconds: 1 } });
    expect(job.status).toBe(202);
    await eventually(async () => expect((await api(gw.url, 'GET', `/jobs/${job.body.job_id}`, { secret: agent.secret })).body.status).toBe('succeeded'), 30_000, 200);
  });

  it('calculators, business_days with weekends and given holidays among them; a country is a 503 not charged', async () => {
    const before = await used();
    const k = { 'x-api-key': key };
    expect((await api(gw.url, 'POST', '/tools/base_convert', { headers: k, body: { value: '255', from_base: 10, to_base: 2 } })).body.value).toBe('11111111');
    const days = await api(gw.url, 'POST', '/tools/business_days', { headers: k, body: { mode: 'count', start: '2026-12-01', end: '2027-01-01', holidays: ['2026-12-25'] } });
    expect(days.body).toMatchObject({ result: 22, holidays_applied: [{ date: '2026-12-25', name: 'Custom holiday' }] });
    const country = await api(gw.url, 'POST', '/tools/business_days', { headers: k, body: { mode: 'count', start: '2026-12-01', end: '2027-01-01', country: 'DE' } });
    expect(country.status).toBe(503);
    expect(country.body.error).toEqual(engineMissing('holidays'));
    expect(await used()).toBe(before + 2);
  });

  it('MCP over stdio (the bin’s `mcp`, the official SDK client): tools/list, a memory call, gen_image a 503 not charged', async () => {
    const client = new Client({ name: 'light-install-stdio', version: '1' });
    const transport = new StdioClientTransport({
      command: install.bin,
      args: ['mcp'],
      cwd: install.dir,
      env: { PATH: install.path, HOME: process.env.HOME ?? '/tmp', GATEWAY_DATA_DIR: dataDir, ...storeEnv(dataDir), LOG_LEVEL: 'warn', AGENT_SECRET: agent.secret, GATEWAY_API_KEY: key },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['memory', 'tools_find', 'gen_image']));
      const got = (await client.callTool({ name: 'memory', arguments: { action: 'get', namespace: 'notes', key: 'plan' } })) as ToolResult;
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent).toMatchObject({ action: 'get', result: { value: { goal: 'ship the light install' } } });
      const found = (await client.callTool({ name: 'tools_find', arguments: { need: 'count business days between two dates' } })) as ToolResult;
      expect(JSON.stringify(found.structuredContent)).toContain('business_days');
      const before = await used();
      const chart = { data: { values: [{ a: 'x', b: 1 }] }, mark: 'bar', encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } } };
      const e = errorOf((await client.callTool({ name: 'gen_image', arguments: { spec: chart } })) as ToolResult);
      expect(e.status).toBe(503);
      expect(e.error).toEqual(engineMissing('image'));
      expect(await used()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('MCP over Streamable HTTP and legacy SSE: tools/list and a call', async () => {
    const headers = { authorization: `Bearer ${agent.secret}` };
    const client = new Client({ name: 'light-install-http', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers } }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('memory');
      const put = (await client.callTool({ name: 'memory', arguments: { action: 'put', namespace: 'notes', key: 'http', value: 'over http' } })) as ToolResult;
      expect(put.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const sse = new V1Client({ name: 'light-install-sse', version: '1' });
    await sse.connect(
      new SSEClientTransport(new URL(`${gw.url}/mcp/sse`), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as object), ...headers } }) },
      }),
    );
    try {
      expect((await sse.listTools()).tools.map((t) => t.name)).toContain('memory');
      const got = await sse.callTool({ name: 'memory', arguments: { action: 'get', namespace: 'notes', key: 'http' } });
      expect(got.structuredContent).toMatchObject({ result: { value: 'over http' } });
    } finally {
      await sse.close();
    }
  });

  it('A2A: a message answered in a completed task', async () => {
    const r = await api(gw.url, 'POST', '/a2a', {
      secret: agent.secret,
      body: { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { role: 'user', messageId: 'light-1', kind: 'message', parts: [{ kind: 'text', text: 'how do I store a secret?' }] } } },
    });
    expect(r.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('OAuth at /mcp/agent: the challenge, both metadata documents and a client registration', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const challenge = await api(gw.url, 'POST', '/mcp/agent', { body: init, headers: { accept: 'application/json, text/event-stream' } });
    expect(challenge.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge.headers.get('www-authenticate') ?? '')?.[1];
    const resource = await api(metadataUrl!, 'GET', '');
    expect(resource.body.resource).toBe(`${gw.url}/mcp/agent`);
    const as = await api(gw.url, 'GET', '/.well-known/oauth-authorization-server');
    expect(as.body.issuer).toBe(gw.url);
    const client = await api(as.body.registration_endpoint, 'POST', '', { body: { redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none', client_name: 'light install' } });
    expect(client.status).toBe(201);
    expect(client.body.client_id).toEqual(expect.any(String));
  });

  it('the OpenAI-compatible chat endpoint answers with gateway-local', async () => {
    const r = await api(gw.url, 'POST', '/v1/chat/completions', { body: { model: 'gateway-local', messages: [{ role: 'user', content: 'how do I store a secret?' }] } });
    expect(r.status).toBe(200);
    expect(r.body.choices[0].message.content).toContain('vault');
  });

  describe('commercial services without their engines: 503 before anything is held', () => {
    let revenueKey: string;
    const HEADERS = () => ({ 'x-revenue-key': revenueKey });
    const account = async () => {
      const usage = (await api(gw.apiUrl, 'GET', '/usage', { headers: HEADERS() })).body;
      const orders = (await api(gw.apiUrl, 'GET', '/orders', { headers: HEADERS() })).body.orders;
      return { balance: usage.balance, held: usage.held.micro_usd, orders: orders.length };
    };
    beforeAll(async () => {
      revenueKey = (await api(gw.apiUrl, 'POST', '/signup', { body: { email: 'buyer@example.com', name: 'Buyer' } })).body.key;
      const credited = await api(gw.url, 'POST', '/operator/credits', { headers: { 'x-operator-token': OPERATOR }, body: { email: 'buyer@example.com', amount: 100_000_000, reason: 'light install test' } });
      expect(credited.status).toBe(201);
    });

    it('an SEO audit names lighthouse', async () => {
      const r = await api(gw.apiUrl, 'POST', '/seo/audits', { headers: HEADERS(), body: { url: 'https://example.com/', audit_type: 'quick' } });
      expect(r.status).toBe(503);
      expect(r.body.error).toEqual(engineMissing('seo'));
      expect(await account()).toEqual({ balance: 100_000_000, held: 0, orders: 0 });
    });

    it('a code review names eslint and the parsers, with the flag npm needs for them', async () => {
      for (const [route, body] of [['/review', { code: 'const a = 1;\n', language: 'javascript' }], ['/v1/code-review', { code: 'x = 1\n', language: 'python' }]] as const) {
        const r = await api(gw.apiUrl, 'POST', route, { headers: HEADERS(), body });
        expect(r.status).toBe(503);
        expect(r.body.error).toEqual(engineMissing('review'));
        expect(r.body.error.install).toMatch(/^npm install --force eslint@/);
      }
      expect(await account()).toEqual({ balance: 100_000_000, held: 0, orders: 0 });
    });

    it('a card payment names stripe', async () => {
      const r = await api(gw.apiUrl, 'POST', '/extract', {
        headers: HEADERS(),
        body: { source: 'Ada Lovelace wrote the first program.', source_type: 'text', schema: { type: 'object', properties: { name: { type: 'string' } } }, payment_method: 'pm_card_visa' },
      });
      expect(r.status).toBe(503);
      expect(r.body.error).toEqual(engineMissing('card'));
      expect(await account()).toEqual({ balance: 100_000_000, held: 0, orders: 0 });
    });
  });

  it('an x402 payment names viem and @x402/*, and the tool is not run', async () => {
    const before = await used();
    const r = await api(gw.url, 'POST', '/tools/base_convert', { headers: { 'payment-signature': Buffer.from('{}').toString('base64') }, body: { value: '255', from_base: 10, to_base: 2 } });
    expect(r.status).toBe(503);
    expect(r.body.error).toEqual(engineMissing('x402'));
    expect(await used()).toBe(before);
  });

  it('the operator console’s overview keeps its tables, with the chart engine’s command in place of each chart', async () => {
    const login = await fetch(`${gw.url}/operator/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: gw.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: OPERATOR }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`${gw.url}/operator`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<table');
    expect(html).toContain('class="engine-missing"');
    expect(html).toContain('npm install vega@');
  });

  it('tracing export configured without its packages: the bin does not start, and says what to install', async () => {
    const out = await serveInstalled(install, { GATEWAY_DATA_DIR: path.join(install.dir, 'data-traced'), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }).then(
      async (s) => (await s.stop(), 'it started'),
      (err: Error) => err.message,
    );
    expect(out).toContain('exited (1) before it was ready');
    for (const p of ENGINES.tracing.packages) expect(out).toContain(` ${p}@^`);
    expect(out).toContain(`npm install ${ENGINES.tracing.packages[0]}@`);
  });

  it('the command a 503 names installs its engine, and the running gateway uses it without a restart', async () => {
    const k = { 'x-api-key': key };
    const body = { mode: 'count', start: '2026-12-01', end: '2027-01-01', country: 'DE' };
    const refused = await api(gw.url, 'POST', '/tools/business_days', { headers: k, body });
    const [npm, ...args] = (refused.body.error.install as string).split(' ');
    expect(npm).toBe('npm');
    await promisify(execFile)(npm!, [...args, '--no-audit', '--no-fund'], { cwd: install.dir, env: cleanEnv({ PATH: install.path }), timeout: 600_000, maxBuffer: 64 << 20 });
    const counted = await api(gw.url, 'POST', '/tools/business_days', { headers: k, body });
    expect(counted.status).toBe(200);
    // Christmas Day, a Friday in 2026; Boxing Day falls on the weekend.
    expect(counted.body).toMatchObject({ result: 22, country: 'DE', holidays_applied: [{ date: '2026-12-25' }] });
  }, 600_000);
});
