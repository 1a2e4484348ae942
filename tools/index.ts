// Every tool of the gateway. Adding a capability = one module here + its REST routes in rest/.
import type { Tool } from '../src/registry/types.js';
import { accessTools } from './access/index.js';
import { calculatorTools } from './calculators/index.js';
import { gatewayInfo } from './gateway/index.js';
import { identityCard } from './identity/card.js';
import { identityTools } from './identity/index.js';
import { onboardingTools } from './onboarding/index.js';
import { toolbeltTools } from './toolbelt/index.js';

export const allTools: Tool[] = [gatewayInfo, ...identityTools, identityCard, ...accessTools, ...calculatorTools, ...toolbeltTools, ...onboardingTools];
