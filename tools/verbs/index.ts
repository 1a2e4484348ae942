// The spec's MCP-only verbs: single tools over whole areas for hosts that keep few tools in context. They answer
// only the MCP transport (expose.mcpOnly) and dispatch to the area tools with ctx.call.
import type { Tool } from '../../src/registry/types.js';
import { coach } from './coach.js';
import { memoryVerb } from './memory.js';

export const verbTools: Tool[] = [memoryVerb, coach];
