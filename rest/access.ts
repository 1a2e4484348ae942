import { route, type Route } from '../src/http/route.js';

const bodyOnly = (p: { body: unknown }) => p.body ?? {};

export const accessRoutes: Route[] = [
  route('GET', '/tools', 'tools_catalog', { summary: 'Calculator catalogue (not the full tool surface)' }),
  route('POST', '/tools/{name}', { param: 'name', admits: (t) => t.expose.catalog }, { input: bodyOnly, summary: 'Call a calculator' }),
  route('POST', '/batch', 'batch', { payable: true, summary: 'Up to 20 calls in order (paid calls: X-API-Key, or x402 for their summed price)' }),
  route('GET', '/toolbelt', 'toolbelt_index', { summary: 'Free instant utilities' }),
  route('POST', '/toolbelt', 'toolbelt_run', { input: 'body', summary: 'Run a utility named in the body ({name, input}); no name: the index' }),
  route('GET', '/toolbelt/{name}', { param: 'name', admits: (t) => t.toolset === 'toolbelt' }, { input: (p) => p.query, summary: 'Run a utility (query input)' }),
  route('POST', '/toolbelt/{name}', { param: 'name', admits: (t) => t.toolset === 'toolbelt' }, { input: bodyOnly, summary: 'Run a utility' }),
  route('POST', '/keys/issue', 'keys_issue', { status: 201, summary: 'Issue an API key (free: at once, no signup)' }),
  route('GET', '/keys/usage', 'keys_usage', { summary: 'Usage of the calling key this month' }),
];
