// Every REST route of the gateway, one table per area.
import type { Route } from '../src/http/route.js';
import { accessRoutes } from './access.js';
import { artifactRoutes } from './artifacts.js';
import { creditRoutes } from './credits.js';
import { entitlementRoutes } from './entitlements.js';
import { gatewayRoutes } from './gateway.js';
import { identityRoutes } from './identity.js';
import { memoryRoutes } from './memory.js';
import { notificationRoutes } from './notifications.js';
import { connectionRoutes } from './connections.js';
import { onboardingRoutes } from './onboarding.js';
import { vaultRoutes } from './vault.js';
import { watchRoutes, workRoutes } from './work.js';
import { x402Routes } from './x402.js';
import { askRoutes } from './ask.js';
import { chatRoutes } from './chat.js';
import { wallRoutes } from './wall.js';
import { socialRoutes } from './social.js';
import { catalogRoutes } from './catalog.js';
import { operatorRoutes } from './operator.js';

export const routes: Route[] = [...gatewayRoutes, ...identityRoutes, ...accessRoutes, ...onboardingRoutes, ...creditRoutes, ...entitlementRoutes, ...memoryRoutes, ...artifactRoutes, ...vaultRoutes, ...notificationRoutes, ...connectionRoutes, ...workRoutes, ...watchRoutes, ...x402Routes, ...askRoutes, ...chatRoutes, ...wallRoutes, ...socialRoutes, ...catalogRoutes, ...operatorRoutes];

export { commercialRoutes } from './commercial.js';
