import { route, type Route } from '../src/http/route.js';

// POST /v1/chat/completions streams, so it is a raw handler (src/openai/chat-endpoint.ts), not a route here.
export const chatRoutes: Route[] = [route('GET', '/v1/models', 'chat_models', { summary: 'OpenAI-compatible model list' })];
