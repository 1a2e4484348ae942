// Every tool of the gateway. Adding a capability = one module here + its REST routes in rest/.
import type { Tool } from '../src/registry/types.js';
import type { Worker } from '../src/workers.js';
import { accessTools } from './access/index.js';
import { artifactTools, createArtifactWorkers } from './artifacts/index.js';
import { calculatorTools } from './calculators/index.js';
import { creditTools } from './credits/index.js';
import { entitlementTools } from './entitlements/index.js';
import { gatewayInfo } from './gateway/index.js';
import { identityCard } from './identity/card.js';
import { identityTools } from './identity/index.js';
import { createMemoryWorkers, memoryTools } from './memory/index.js';
import { notificationTools } from './notifications/index.js';
import { onboardingTools } from './onboarding/index.js';
import { toolbeltTools } from './toolbelt/index.js';
import { vaultTools } from './vault/index.js';
import { x402Tools } from './x402/index.js';

export const allTools: Tool[] = [gatewayInfo, ...identityTools, identityCard, ...accessTools, ...calculatorTools, ...toolbeltTools, ...onboardingTools, ...creditTools, ...entitlementTools, ...memoryTools, ...artifactTools, ...vaultTools, ...notificationTools, ...x402Tools];

/** Background workers of every area, fresh for each gateway. */
export const createWorkers = (): Worker[] => [...createMemoryWorkers(), ...createArtifactWorkers()];
