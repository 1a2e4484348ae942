// Every REST route of the gateway, one table per area.
import type { Route } from '../src/http/route.js';
import { accessRoutes } from './access.js';
import { gatewayRoutes } from './gateway.js';
import { identityRoutes } from './identity.js';
import { onboardingRoutes } from './onboarding.js';

export const routes: Route[] = [...gatewayRoutes, ...identityRoutes, ...accessRoutes, ...onboardingRoutes];
