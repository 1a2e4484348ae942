// SEP-2243 custom headers (src/mcp/param-headers.ts): a tool's `x-mcp-header` properties, and the Mcp-Param-*
// headers a 2026-07-28 tools/call must send for them, checked against the arguments; over HTTP a disagreement is
// 400 with HeaderMismatch (-32020) before the tool runs, on the direct path and the SDK's alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, jsonSchemaOf } from '../../src/registry/define-tool.js';
import { headerDeclarations, paramHeaderMismatch } from '../../src/mcp/param-headers.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { modernPost } from '../helpers/modern-mcp.js';

const input = z.object({
  region: z.string().meta({ 'x-mcp-header': 'Region' }),
  shard: z.number().int().optional().meta({ 'x-mcp-header': 'Shard' }),
  where: z.object({ zone: z.string().meta({ 'x-mcp-header': 'Zone' }) }).optional(),
  tags: z.array(z.string().meta({ 'x-mcp-header': 'Ignored' })).optional(),
});

describe('headerDeclarations and paramHeaderMismatch', () => {
  const decls = headerDeclarations(jsonSchemaOf(input));

  it('finds the declarations along properties only', () => {
    expect(decls.map((d) => [d.path.join('.'), d.header])).toEqual([
      ['region', 'Region'],
      ['shard', 'Shard'],
      ['where.zone', 'Zone'],
    ]);
  });

  it('accepts matching headers: literal, Base64 of UTF-8, numbers by value; no header for an absent argument', () => {
    const b64 = (s: string) => `=?base64?${Buffer.from(s).toString('base64')}?=`;
    expect(paramHeaderMismatch(decls, { region: 'eu' }, { 'mcp-param-region': 'eu' })).toBeUndefined();
    expect(paramHeaderMismatch(decls, { region: 'Zürich' }, { 'mcp-param-region': b64('Zürich') })).toBeUndefined();
    expect(paramHeaderMismatch(decls, { region: 'eu', shard: 42 }, { 'mcp-param-region': 'eu', 'mcp-param-shard': '42.0' })).toBeUndefined();
    // Without the closing `?=` the value is literal.
    expect(paramHeaderMismatch(decls, { region: '=?base64?ZXU=' }, { 'mcp-param-region': '=?base64?ZXU=' })).toBeUndefined();
  });

  it('refuses a missing header, a different value and Base64 that is not canonical', () => {
    expect(paramHeaderMismatch(decls, { region: 'eu' }, {})?.header).toBe('Mcp-Param-Region');
    expect(paramHeaderMismatch(decls, { region: 'eu', where: { zone: 'a' } }, { 'mcp-param-region': 'eu', 'mcp-param-zone': 'b' })?.header).toBe('Mcp-Param-Zone');
    expect(paramHeaderMismatch(decls, { region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' })?.body).toMatch(/invalid Base64/);
    expect(paramHeaderMismatch(decls, { region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' })?.body).toMatch(/invalid Base64/);
  });
});

describe('over HTTP (2026-07-28)', () => {
  let gw: TestGateway;
  let ran = 0;
  beforeAll(async () => {
    const routed = defineTool({ name: 'ph_routed', toolset: 'param-headers-test', description: 'Routed by region.', input, auth: 'public', handler: (i) => (ran++, { region: i.region }) });
    gw = await startGateway({ additions: { tools: [routed] } });
  });
  afterAll(async () => gw.cleanup());

  const callWith = async (headers: Record<string, string>, capabilities: Record<string, unknown> = {}) => {
    const res = await modernPost(gw.url, 'tools/call', { name: 'ph_routed', arguments: { region: 'eu' } }, { headers, capabilities });
    return { status: res.status, body: (await res.json()) as { result?: any; error?: any } };
  };

  it('lists the declaration in the tool input schema', async () => {
    const res = await modernPost(gw.url, 'tools/list', {}, { query: 'toolsets=param-headers-test' });
    const tool = ((await res.json()) as { result: { tools: { name: string; inputSchema: any }[] } }).result.tools.find((t) => t.name === 'ph_routed');
    expect(tool?.inputSchema.properties.region['x-mcp-header']).toBe('Region');
  });

  it('runs the tool when the header agrees, and refuses with 400 HeaderMismatch when it is missing or differs', async () => {
    const before = ran;
    expect((await callWith({ 'mcp-param-region': 'eu' })).body.result.structuredContent).toEqual({ region: 'eu' });
    for (const caps of [{}, { elicitation: {} }]) {
      const missing = await callWith({}, caps);
      expect(missing.status).toBe(400);
      expect(missing.body.error).toMatchObject({ code: -32020, data: { mismatch: { header: 'Mcp-Param-Region' } } });
      expect((await callWith({ 'mcp-param-region': 'us' }, caps)).body.error.code).toBe(-32020);
    }
    expect(ran).toBe(before + 1);
  });
});
