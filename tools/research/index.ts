// The research verb (issue 22): being built.
import type { Tool } from '../../src/registry/types.js';

export const researchTools: Tool[] = [];
