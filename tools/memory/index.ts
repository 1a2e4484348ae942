import type { Tool } from '../../src/registry/types.js';
import { bulkTools } from './bulk.js';
import { entryTools } from './entries.js';
import { knowledgeTools } from './knowledge.js';
import { overviewTools } from './overview.js';
import { searchTools } from './search.js';
import { sharingTools } from './sharing.js';
import { memorySummarize } from './summarize.js';
import { memoryChanges } from './sync.js';
import { templateTools } from './templates.js';
import { transferTools } from './transfer.js';

export const memoryTools: Tool[] = [
  ...entryTools,
  ...sharingTools,
  ...searchTools,
  ...knowledgeTools,
  memoryChanges,
  ...bulkTools,
  ...templateTools,
  memorySummarize,
  ...overviewTools,
  ...transferTools,
];

export { createMemoryWorkers } from './workers.js';
