// The memory graph view in a real host: headless Chromium renders the ui:// resource in a sandboxed iframe under
// the Content-Security-Policy the extension prescribes for its `_meta.ui.csp`, and the package's own AppBridge,
// given an official v2 client signed in as the agent, speaks the postMessage protocol with the inlined App class
// (the host page only relays the messages between the iframe and the bridge). The view draws the graph from the
// tool result and reads an entry through the host when it is clicked.
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { AppBridge, getToolUiResourceUri, type McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { everyTool } from '../helpers/list-tools.js';
import { GRAPH_ENTRIES } from './clients.js';

/** The CSP a host builds from the resource's `_meta.ui.csp` (the extension's "CSP Construction from Metadata"). */
function cspOf(csp: McpUiResourceCsp = {}): string {
  const res = (csp.resourceDomains ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${res}`,
    `style-src 'self' 'unsafe-inline' ${res}`,
    `connect-src ${csp.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'"}`,
    `img-src 'self' data: ${res}`,
    `font-src 'self' ${res}`,
    `media-src 'self' data: ${res}`,
    `frame-src ${csp.frameDomains?.length ? csp.frameDomains.join(' ') : "'none'"}`,
    "object-src 'none'",
    `base-uri ${csp.baseUriDomains?.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
  ].join('; ');
}

/** The host page: an iframe sandboxed to scripts only, and a relay of its messages to and from the test. */
const HOST_PAGE = `<!doctype html><html><body style="margin:0">
<iframe id="view" sandbox="allow-scripts" style="width:760px;height:720px;border:0"></iframe>
<script>
  const frame = document.getElementById('view');
  window.addEventListener('message', (e) => { if (e.source === frame.contentWindow) window.fromView(e.data); });
  window.toView = (m) => frame.contentWindow.postMessage(m, '*');
  window.load = (html) => { frame.srcdoc = html; };
</script></body></html>`;

/** The bridge's side of the page relay: what it sends goes to the iframe, what the iframe posts comes back. */
class PageRelay implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(private readonly page: Page) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    await this.page.evaluate((m) => (globalThis as unknown as { toView(m: unknown): void }).toView(m), message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

let gw: TestGateway;
let alice: { handle: string; secret: string };
beforeAll(async () => {
  gw = await startGateway();
  alice = await register(gw.url, 'alice');
  for (const e of GRAPH_ENTRIES) {
    await api(gw.url, 'PUT', `/memory/${e.ns}/${encodeURIComponent(e.key)}`, { secret: alice.secret, body: { value: e.value, tags: e.tags } });
  }
  await eventually(async () => {
    const g = await api(gw.url, 'GET', '/memory/graph', { secret: alice.secret });
    expect(g.body.edges.map((e: { type: string }) => e.type)).toContain('shares-entity');
  }, 60_000);
});
afterAll(async () => gw.cleanup());

describe.skipIf(!hasChromium)('the memory graph view in a host (headless Chromium, AppBridge)', () => {
  let browser: Browser;
  let client: Client;
  afterAll(async () => Promise.all([browser?.close(), client?.close()]));

  it('draws the graph from the tool result and reads an entry through the host when it is clicked', async () => {
    client = new Client({ name: 'apps-host', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp?toolsets=all`), { requestInit: { headers: { authorization: `Bearer ${alice.secret}` } } }));

    // What a host does with a tool that names a view: find it in the listing, read the resource, apply its CSP.
    const tool = (await everyTool(client)).find((t) => t.name === 'memory_graph')!;
    const uri = getToolUiResourceUri(tool)!;
    expect(uri).toBe('ui://agent-gateway/memory-graph');
    const content = (await client.readResource({ uri })).contents[0] as { mimeType: string; text: string; _meta?: { ui?: { csp?: McpUiResourceCsp } } };
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    const html = content.text.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${cspOf(content._meta?.ui?.csp)}">`);

    browser = await launchBrowser();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const relay = new PageRelay(page);
    await page.exposeFunction('fromView', (m: JSONRPCMessage) => relay.onmessage?.(m));
    await page.setContent(HOST_PAGE);

    const bridge = new AppBridge(client, { name: 'apps-test-host', version: '1' }, { serverTools: {}, serverResources: {} }, {
      hostContext: { theme: 'dark', displayMode: 'inline', containerDimensions: { width: 760, maxHeight: 720 }, toolInfo: { tool } },
    });
    const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
    const sizes: { width?: number; height?: number }[] = [];
    bridge.onsizechange = (s) => sizes.push(s);
    // The bridge forwards the view's tools/call to the client's request(); note what the view asks for.
    const calls: { name: string; arguments?: Record<string, unknown> }[] = [];
    const request = client.request.bind(client);
    client.request = ((req: { method: string; params?: { name: string; arguments?: Record<string, unknown> } }, ...rest: unknown[]) => {
      if (req.method === 'tools/call') calls.push({ name: req.params!.name, arguments: req.params!.arguments });
      return (request as (...args: unknown[]) => unknown)(req, ...rest);
    }) as typeof client.request;
    await bridge.connect(relay);
    await page.evaluate((h) => (globalThis as unknown as { load(h: string): void }).load(h), html);
    await initialized;
    expect(bridge.getAppVersion()).toEqual({ name: 'agent-gateway-memory-graph', version: '1.0.0' });

    // The call the host made for the model, passed to the view.
    const result = await client.callTool({ name: 'memory_graph', arguments: {} });
    calls.length = 0;
    const graph = result.structuredContent as { nodes: { id: string; type: string }[]; edges: unknown[] };
    await bridge.sendToolInput({ arguments: {} });
    await bridge.sendToolResult(result);

    const view = viewFrame(page);
    await view.waitForSelector('g.node[data-id="entry:people/ana"]');
    expect(await view.locator('g.node').count()).toBe(graph.nodes.length);
    expect(await view.locator('line.edge').count()).toBe(graph.edges.length);
    expect(await view.locator('line.edge.shares-entity').count()).toBeGreaterThan(0);
    expect(await view.textContent('#summary')).toContain('3 entries');
    // The host's theme reached the document.
    expect(await view.getAttribute('html', 'data-theme')).toBe('dark');

    // An entity: its entries light up, nothing is read.
    const carlos = graph.nodes.find((n) => n.type === 'entity' && n.id.includes('carlos'))!;
    await view.locator(`g.node[data-id="${carlos.id}"] circle`).dispatchEvent('click');
    expect(await view.getAttribute('svg', 'class')).toContain('focused');
    for (const id of ['entry:people/ana', 'entry:people/ben', 'entry:notes/offsite/plan']) {
      expect(await view.getAttribute(`g.node[data-id="${id}"]`, 'class')).toContain('near');
    }
    expect(calls).toEqual([]);

    // An entry, clicked: memory_get through the host, the value shown.
    await view.locator('g.node[data-id="entry:people/ben"] rect').dispatchEvent('click');
    await view.locator('#entry-value', { hasText: 'Ben works with Carlos Silva' }).waitFor();
    expect(await view.textContent('#entry-title')).toBe('people/ben');
    expect(await view.textContent('#entry-meta')).toContain('tags: contact');
    expect(calls).toEqual([{ name: 'memory_get', arguments: { namespace: 'people', key: 'ben' } }]);

    // A key with a slash, opened from the keyboard: JSON shown as JSON.
    await view.focus('g.node[data-id="entry:notes/offsite/plan"]');
    await page.keyboard.press('Enter');
    await view.locator('#entry-value', { hasText: '"budget": 1200' }).waitFor();
    expect(calls[1]).toEqual({ name: 'memory_get', arguments: { namespace: 'notes', key: 'offsite/plan' } });

    // An entry gone since the graph was drawn: the tool's error, shown as one.
    expect((await api(gw.url, 'DELETE', '/memory/people/ana', { secret: alice.secret })).status).toBeLessThan(300);
    await view.locator('g.node[data-id="entry:people/ana"] rect').dispatchEvent('click');
    await view.waitForSelector('#entry.error');
    expect(await view.textContent('#entry-title')).toBe('people/ana');
    expect(calls).toHaveLength(3);

    await eventually(async () => expect(sizes.some((s) => (s.height ?? 0) > 0)).toBe(true));
    expect(await bridge.teardownResource({})).toEqual({});
    // No CSP violation (nothing fetched, nothing eval'd) and no script error in the view or the page.
    expect(problems).toEqual([]);
  });
});

function viewFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f !== page.mainFrame());
  if (!frame) throw new Error('the view iframe is missing');
  return frame;
}

