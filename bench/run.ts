// npm run bench [-- scenario…]: runs the benchmark scenarios and prints a markdown report.
import { foundation } from './scenarios/foundation.js';
import { memory, memorySearchLatency } from './scenarios/memory.js';
import { work } from './scenarios/work.js';
import { tools } from './scenarios/tools.js';
import { artifacts } from './scenarios/artifacts.js';
import { x402 } from './scenarios/x402.js';
import { social } from './scenarios/social.js';
import { conversation } from './scenarios/conversation.js';
import { a2a } from './scenarios/a2a.js';
import { browse } from './scenarios/browse.js';

const SCENARIOS: Record<string, () => Promise<string>> = { foundation, memory, 'memory-search': memorySearchLatency, x402, work, tools, artifacts, social, conversation, a2a, browse, 'gen-image': async () => (await import('./scenarios/gen-image.js')).genImage(), research: async () => (await import('./scenarios/research.js')).research(), commercial: async () => (await import('./scenarios/commercial.js')).commercial(), extract: async () => (await import('./scenarios/extract.js')).extract(), review: async () => (await import('./scenarios/review.js')).reviewBench(), seo: async () => (await import('./scenarios/seo.js')).seo(), tracing: async () => (await import('./scenarios/tracing.js')).tracing(), postgres: async () => (await import('./scenarios/postgres.js')).postgres(), storage: async () => (await import('./scenarios/storage.js')).storage(), recall: async () => (await import('./scenarios/recall.js')).recall(), soak: async () => (await import('./scenarios/soak.js')).soak(), budget: async () => (await import('./scenarios/budget.js')).budget(), quality: async () => (await import('./scenarios/quality.js')).quality(), console: async () => (await import('./scenarios/console.js')).consoleBench(), install: async () => (await import('./scenarios/install.js')).install() };
/**
 * Run only when named: the soak takes a quarter of an hour; the budget is a study of one route, not a target; the
 * quality corpora take about ten minutes (a Lighthouse run per SEO page); the install needs the npm registry.
 */
const ON_REQUEST = new Set(['soak', 'budget', 'memory-search', 'quality', 'install']);

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length ? wanted : Object.keys(SCENARIOS).filter((n) => !ON_REQUEST.has(n));
  for (const n of names) {
    const s = SCENARIOS[n];
    if (!s) throw new Error(`unknown scenario ${n}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    process.stdout.write(`${await s()}\n\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
