// MCP App views (the io.modelcontextprotocol/ui extension) as ui:// resources, each read through its registry tool.
import type { ResourceDef } from '../src/registry/resource-defs.js';
import { APP_MIME_TYPE, MEMORY_GRAPH_APP_URI, memoryGraphAppResourceMeta } from '../tools/memory/graph-app.js';

export const appResources: ResourceDef[] = [
  {
    uri: MEMORY_GRAPH_APP_URI,
    name: 'memory-graph-app',
    title: 'Memory graph view',
    description: 'The interactive view memory_graph renders in, for hosts that show MCP Apps: entries, entities and topics, click an entry to read it.',
    mimeType: APP_MIME_TYPE,
    tool: 'memory_graph_app',
    meta: memoryGraphAppResourceMeta,
  },
];
