// What an MCP server serves: the registry's tools, the resources and prompts defined beside them, the page size.
import type { Clock } from '../clock.js';
import type { Registry } from '../registry/registry.js';
import type { PromptDef } from '../registry/prompt-defs.js';
import type { ResourceDef, ResourceListerDef, ResourceTemplateDef } from '../registry/resource-defs.js';
import type { Db } from '../store/db.js';

export interface McpCatalog {
  registry: Registry;
  resources: ResourceDef[];
  resourceListers: ResourceListerDef[];
  resourceTemplates: ResourceTemplateDef[];
  prompts: PromptDef[];
  pageSize: number;
  /** Where MCP tasks (the Tasks extension) are kept, and the clock that dates them. */
  tasks: { db: Db; clock: Clock };
  /**
   * Signs the state a multi-round call carries between its requests (input-state.ts): derived from the install's
   * pepper, so every gateway process of the install verifies what another issued.
   */
  stateKey: Uint8Array;
}
