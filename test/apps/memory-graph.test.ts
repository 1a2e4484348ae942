// The memory graph MCP App (io.modelcontextprotocol/ui) as hosts see it over the wire, with the official v2 client
// in both eras over Streamable HTTP and stdio: the extension declared, memory_graph's listing naming the view, the
// ui:// resource as one self-contained HTML document, and the graph itself as structuredContent for hosts that
// do not render apps, the caller's own only.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryGraph } from '../../tools/memory/knowledge.js';
import { eventually } from '../helpers/eventually.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { everyTool } from '../helpers/list-tools.js';
import { connect, CONNECTIONS, GRAPH_ENTRIES } from './clients.js';

const URI = 'ui://agent-gateway/memory-graph';
const MIME = 'text/html;profile=mcp-app';
const BUNDLE = fs.readFileSync(createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps'), 'utf8');

let gw: TestGateway;
let alice: { handle: string; secret: string };
let bob: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  [alice, bob] = await Promise.all([register(gw.url, 'alice'), register(gw.url, 'bob')]);
  for (const e of GRAPH_ENTRIES) {
    const r = await api(gw.url, 'PUT', `/memory/${e.ns}/${encodeURIComponent(e.key)}`, { secret: alice.secret, body: { value: e.value, tags: e.tags } });
    expect(r.status).toBeLessThan(300);
  }
  // Facts are extracted in the background: wait until the graph links the two people through Carlos Silva.
  await eventually(async () => {
    const g = await api(gw.url, 'GET', '/memory/graph', { secret: alice.secret });
    expect(g.body.edges.map((e: { type: string }) => e.type)).toContain('shares-entity');
  }, 60_000);
});
afterAll(async () => gw.cleanup());

type ToolResult = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as ToolResult;
const errorOf = (r: ToolResult) => {
  expect(r.isError).toBe(true);
  return JSON.parse(r.content[0].text!) as { status: number; error: { code: string } };
};

describe.each(CONNECTIONS)('the memory graph app, %s', (connection) => {
  let a: Client;
  let b: Client;
  let anon: Client;
  beforeAll(async () => {
    [a, b, anon] = await Promise.all([connect(connection, gw, alice.secret), connect(connection, gw, bob.secret), connect(connection, gw)]);
  });
  afterAll(async () => Promise.all([a, b, anon].map((c) => c.close())));

  it('declares the io.modelcontextprotocol/ui extension', () => {
    expect(a.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/ui']).toEqual({ mimeTypes: [MIME] });
  });

  it('lists memory_graph with the view in _meta.ui and an outputSchema; tools without _meta carry none', async () => {
    const tools = await everyTool(a);
    const graph = tools.find((t) => t.name === 'memory_graph')!;
    expect(graph._meta).toEqual({ ui: { resourceUri: URI }, 'ui/resourceUri': URI });
    expect(graph.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['nodes', 'edges', 'counts']) });
    expect(tools.find((t) => t.name === 'memory_get')).not.toHaveProperty('_meta');
    // The view's content comes from a registry tool that is not an MCP tool.
    expect(tools.map((t) => t.name)).not.toContain('memory_graph_app');
  });

  it('serves the view as one self-contained HTML document with the App class inlined', async () => {
    const listed = (await a.listResources()).resources.find((r) => r.uri === URI);
    expect(listed).toMatchObject({ mimeType: MIME, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } });
    // Anyone may read the view: it holds no data (the graph comes with the call's result).
    for (const c of [a, anon]) {
      const read = await c.readResource({ uri: URI });
      expect(read.contents).toHaveLength(1);
      const content = read.contents[0] as { uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> };
      expect(content).toMatchObject({ uri: URI, mimeType: MIME, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } });
      const html = content.text;
      expect(html.startsWith('<!doctype html>')).toBe(true);
      // The package's browser bundle, verbatim up to its export list, and the view that uses it.
      const bundle = BUNDLE.slice(0, BUNDLE.lastIndexOf('export{'));
      expect(html).toContain(bundle);
      expect(html).toContain('const McpExtApps = (() => {');
      expect(html).toContain("name: 'memory_get'");
      expect(html).not.toContain('//@ext-apps-bundle');
      // Nothing is fetched: no external script, style sheet, image or frame, no style from elsewhere.
      expect(html).not.toMatch(/<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=/i);
      expect(html.replace(bundle, '')).not.toMatch(/@import|url\(/i);
    }
  });

  it("calling memory_graph answers the caller's nodes and edges as structuredContent matching the output schema", async () => {
    // The client has checked structuredContent against the listed outputSchema before this returns.
    await a.listTools();
    const r = await call(a, 'memory_graph', {});
    expect(r.isError).toBeFalsy();
    const graph = memoryGraph.output!.parse(r.structuredContent) as { nodes: { id: string; type: string; label: string; kind?: string }[]; edges: { type: string }[] };
    expect(JSON.parse(r.content[0].text!)).toEqual(r.structuredContent);
    expect(graph.nodes).toEqual(
      expect.arrayContaining([
        { id: 'entry:people/ana', type: 'entry', label: 'people/ana' },
        { id: 'entry:people/ben', type: 'entry', label: 'people/ben' },
        { id: 'entry:notes/offsite/plan', type: 'entry', label: 'notes/offsite/plan' },
        expect.objectContaining({ type: 'entity', label: 'Carlos Silva', kind: 'person' }),
        expect.objectContaining({ type: 'topic', label: 'hiring' }),
      ]),
    );
    expect(new Set(graph.edges.map((e) => e.type))).toEqual(new Set(['mentions', 'tagged', 'shares-entity']));
  });

  it("another agent cannot read alice's graph (403) and its own holds none of her memory", async () => {
    expect(errorOf(await call(b, 'memory_graph', { handle: 'alice' }))).toMatchObject({ status: 403 });
    const own = await call(b, 'memory_graph', {});
    expect(own.structuredContent).toEqual({ nodes: [], edges: [], counts: { nodes: 0, edges: 0 } });
  });

  it('an anonymous caller gets 401', async () => {
    expect(errorOf(await call(anon, 'memory_graph', {}))).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
  });
});

describe('the memory graph app outside MCP', () => {
  it('REST answers the same graph, and the view is no REST tool', async () => {
    const g = await api(gw.url, 'GET', '/memory/graph', { secret: alice.secret });
    expect(g.status).toBe(200);
    expect(memoryGraph.output!.parse(g.body)).toEqual(g.body);
    expect(g.body).not.toHaveProperty('_meta');
    expect((await api(gw.url, 'POST', '/tools/memory_graph_app', { body: {} })).status).toBe(404);
  });
});

