// Catalogues (public): new, trending, curated collections, bundles, tutorials, services, intelligence, and
// the executing agent templates. Levels and badges live with XP (tools/xp) in the same toolset.
import type { Tool } from '../../src/registry/types.js';
import { contentTools } from './content.js';
import { catalogNew, catalogTrending } from './discovery.js';
import { catalogIntelligence } from './intelligence.js';
import { agentTemplateRun } from './run.js';
import { agentTemplateGet, agentTemplateList } from './templates.js';

export const catalogTools: Tool[] = [catalogNew, catalogTrending, ...contentTools, catalogIntelligence, agentTemplateList, agentTemplateGet, agentTemplateRun];
