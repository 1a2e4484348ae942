import { route, type Route } from '../src/http/route.js';
import { connectHtml, economicsHtml, homeHtml } from '../tools/onboarding/pages.js';

export const onboardingRoutes: Route[] = [
  route('GET', '/', 'home', { html: homeHtml, summary: 'Home: what this gateway is and where to start (JSON index, or HTML for browsers)' }),
  route('GET', '/connect', 'connect', { html: connectHtml, summary: 'Onboarding: free key, MCP config, pay-per-call (JSON or HTML)' }),
  route('GET', '/agent-economics', 'agent_economics', { html: economicsHtml, summary: 'Orientation guide (JSON or HTML)' }),
];
