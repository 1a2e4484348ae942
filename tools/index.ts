// Every tool of the gateway. Adding a capability = one module here + its REST routes in rest/.
import type { Tool } from '../src/registry/types.js';
import type { Worker, WorkerContext } from '../src/workers.js';
import type { WorkKind } from '../src/scheduler/scheduler.js';
import { accessTools } from './access/index.js';
import { artifactTools, createArtifactWorkers } from './artifacts/index.js';
import { calculatorTools } from './calculators/index.js';
import { creditTools } from './credits/index.js';
import { entitlementTools } from './entitlements/index.js';
import { gatewayInfo } from './gateway/index.js';
import { toolsFind } from './gateway/tools-find.js';
import { identityCard } from './identity/card.js';
import { identityTools } from './identity/index.js';
import { createMemoryWorkers, memoryTools } from './memory/index.js';
import { notificationTools } from './notifications/index.js';
import { connectionTools } from './connections/index.js';
import { onboardingTools } from './onboarding/index.js';
import { toolbeltTools } from './toolbelt/index.js';
import { vaultTools } from './vault/index.js';
import { webhookKind, webhookSecretGet } from './webhooks/index.js';
import { heartbeat } from './beat/index.js';
import { handoffExpiryKind, handoffTools } from './handoffs/index.js';
import { jobKind, jobTools } from './jobs/index.js';
import { watchCheckKind, watchTools } from './watches/index.js';
import { x402Tools } from './x402/index.js';
import { assistantTools } from './assistant/index.js';
import { chatTools } from './chat/index.js';
import { createWallWorkers, wallTools } from './wall/index.js';
import { commercialTools, createCommercialWorkers, orderAcceptKind, orderKind } from './commercial/index.js';
import { socialTools } from './social/index.js';
import { createXpWorkers, xpTools } from './xp/index.js';
import { catalogTools } from './catalog/index.js';
import { verbTools } from './verbs/index.js';
import { browseTools } from './browse/index.js';
import { researchTools } from './research/index.js';
import { genImageTools } from './gen-image/index.js';
import { operatorTools } from './operator/index.js';

export const allTools: Tool[] = [gatewayInfo, toolsFind, ...identityTools, identityCard, ...accessTools, ...calculatorTools, ...toolbeltTools, ...onboardingTools, ...creditTools, ...entitlementTools, ...memoryTools, ...artifactTools, ...vaultTools, ...notificationTools, ...connectionTools, webhookSecretGet, ...jobTools, ...handoffTools, ...watchTools, heartbeat, ...x402Tools, ...assistantTools, ...chatTools, ...wallTools, ...socialTools, ...xpTools, ...catalogTools, ...verbTools, ...browseTools, ...researchTools, ...genImageTools, ...commercialTools, ...operatorTools];

/** Background workers of every area, fresh for each gateway. */
export const createWorkers = (): Worker[] => [...createMemoryWorkers(), ...createArtifactWorkers(), ...createWallWorkers(), ...createXpWorkers(), ...createCommercialWorkers()];

/** Kinds of durable work the scheduler runs, fresh for each gateway. */
export const createWorkKinds = (): WorkKind<WorkerContext>[] => [webhookKind, jobKind, handoffExpiryKind, watchCheckKind, orderKind, orderAcceptKind];
