import type { Tool } from '../../src/registry/types.js';
import { batch } from './batch.js';
import { toolsCatalog } from './catalog.js';
import { keysIssue, keysUsage } from './keys.js';
import { toolbeltIndex } from './toolbelt-index.js';
import { toolbeltRun } from './toolbelt-run.js';

export const accessTools: Tool[] = [toolsCatalog, batch, toolbeltIndex, toolbeltRun, keysIssue, keysUsage];
