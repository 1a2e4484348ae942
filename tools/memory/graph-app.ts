// The memory graph as an MCP App (the io.modelcontextprotocol/ui extension, docs/decisions/mcp-app.md): memory_graph's
// MCP listing names the view, ui://agent-gateway/memory-graph, which hosts that render apps read and show with the
// call's result; every other client gets the same nodes and edges as structuredContent. The view is one
// self-contained HTML document: resources/views/memory-graph.html with the App class of
// @modelcontextprotocol/ext-apps inlined, since the host's Content-Security-Policy allows no fetch at all.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { projectRoot } from '../../src/paths.js';

export const MEMORY_GRAPH_APP_URI = 'ui://agent-gateway/memory-graph';
export const APP_MIME_TYPE = RESOURCE_MIME_TYPE;

/**
 * `_meta` of memory_graph's MCP listing: the view its results render in, under `ui.resourceUri` and under the flat
 * key older hosts read (the package's `registerAppTool` sets both the same way).
 */
export const memoryGraphAppMeta = { ui: { resourceUri: MEMORY_GRAPH_APP_URI }, [RESOURCE_URI_META_KEY]: MEMORY_GRAPH_APP_URI };

/**
 * `_meta` of the view resource: no domain of any kind (no fetch, no script, style, image or font from elsewhere,
 * no frame), which is the extension's restrictive default, said out loud for hosts that review it.
 */
export const memoryGraphAppResourceMeta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

const TEMPLATE = path.join(projectRoot(fileURLToPath(import.meta.url)), 'resources', 'views', 'memory-graph.html');
/** Where the module script takes the bundle. */
const MARKER = '//@ext-apps-bundle';
// Resolved when the module loads (a missing package fails at start-up), from src/ or dist/ alike.
const BUNDLE = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps');

let html: string | undefined;

/** The view's HTML, assembled on first read (half a megabyte, mostly the App bundle) and kept. */
export function memoryGraphAppHtml(): string {
  return (html ??= assemble(fs.readFileSync(TEMPLATE, 'utf8'), fs.readFileSync(BUNDLE, 'utf8')));
}

/**
 * The template with the browser bundle of the App class (an ES module that imports nothing) in its module
 * script, inside a function of its own so its minified top-level names cannot clash with the view's: its closing
 * `export { a as App, … }` becomes that function's `return { App: a, … }`, and the view's code after it in the
 * same script reads `McpExtApps.App` (an inline script has no URL to import from).
 */
export function assemble(template: string, bundle: string): string {
  const exported = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(bundle);
  if (!exported) throw new Error('@modelcontextprotocol/ext-apps/app-with-deps no longer ends with an export list');
  const names = exported[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((spec) => {
      const [local, as] = spec.split(/\s+as\s+/);
      return `${JSON.stringify(as ?? local)}: ${local}`;
    });
  // `</script` would end the element early; escaped it means the same inside a string, template or regex.
  const code = `const McpExtApps = (() => {\n${bundle.slice(0, exported.index)}\nreturn { ${names.join(', ')} };\n})();`.replace(/<\/(script)/gi, '<\\/$1');
  if (!template.includes(MARKER)) throw new Error(`${TEMPLATE} has no ${MARKER} line`);
  // A function replacer: `$` sequences in the bundle stay as they are.
  return template.replace(MARKER, () => code);
}

/** The view resource's content. Not an MCP tool: hosts read it as the ui:// resource. */
export const memoryGraphApp = defineTool({
  name: 'memory_graph_app',
  title: 'Memory graph view',
  toolset: 'memory',
  description: `The HTML of the memory graph view (MCP App), read as the resource ${MEMORY_GRAPH_APP_URI}.`,
  input: z.object({}),
  auth: 'public',
  expose: { mcp: false, mcpOnly: true },
  annotations: { readOnlyHint: true },
  handler: () => memoryGraphAppHtml(),
});
