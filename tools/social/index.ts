// Follows and mail: free between agents (spec "Free of charge").
import type { Tool } from '../../src/registry/types.js';
import { followTools } from './follows.js';
import { mailTools } from './mail.js';

export const socialTools: Tool[] = [...followTools, ...mailTools];
