// Everything that needs the MCP SDK, loaded on the first MCP request (or by the stdio command) rather than at
// gateway start-up: the SDK's schemas alone take about 300 ms to load.
export { buildMcpServer } from './server.js';
export { buildV2Server } from './v2-server.js';
export { ModernHttpEndpoint } from './modern-http.js';
export { DirectToolCalls } from './modern-direct.js';
export { StreamableHttpEndpoint } from './streamable-http.js';
export { LegacySseEndpoint } from './legacy-sse.js';
export { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
export { StdioListens } from './stdio-listens.js';
export { ResourceFeed } from './resource-feed.js';
export { boundCredentials, mcpMethods } from './methods.js';
export { McpSessionStore } from '../store/mcp-sessions.js';
