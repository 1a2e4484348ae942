import { route, type Route } from '../src/http/route.js';

export const x402Routes: Route[] = [route('GET', '/.well-known/x402', 'x402_discovery', { summary: 'x402 discovery: paid resources and how to pay' })];
