import { route, type Route } from '../src/http/route.js';

export const gatewayRoutes: Route[] = [route('GET', '/info', 'gateway_info', { summary: 'Gateway overview' })];
