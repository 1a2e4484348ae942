import { route, type Route } from '../src/http/route.js';

export const askRoutes: Route[] = [
  // The spec names the query parameter `q`; NLWeb clients send `query`: both work, `q` is documented.
  route('GET', '/ask', 'ask', { queryAliases: { q: 'query' }, summary: 'Ask what the gateway can do (NLWeb-style answer)' }),
  route('POST', '/ask', 'ask', { input: 'body', summary: 'Ask with an NLWeb-style AskBody (query, prev, mode)' }),
];
