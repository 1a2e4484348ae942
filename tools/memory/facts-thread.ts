// The fact-extraction thread: compromise's tagging takes a millisecond or more per entry, which on the event
// loop stalled every request behind it; here it runs beside the loop at the lowest CPU priority, so a storm of
// writes (whose facts can wait) takes only CPU the requests leave idle. Where a thread's priority cannot be
// lowered, it rests three times as long as it worked instead. Entries arrive as stored JSON.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { lowerThreadPriority, serveThread } from '../../src/threads.js';
import { extractFacts, type Fact } from './facts-extract.js';

export interface FactsRequest {
  value: string;
  tags: string;
}

const niced = lowerThreadPriority();
/** When the rest after the previous batch ends. */
let restUntil = 0;

serveThread(async (entries: FactsRequest[]): Promise<Fact[][]> => {
  const wait = restUntil - performance.now();
  if (wait > 0) await sleep(wait);
  const started = performance.now();
  const out: Fact[][] = [];
  for (const e of entries) out.push(await extractFacts(JSON.parse(e.value), JSON.parse(e.tags) as string[]));
  const now = performance.now();
  if (!niced) restUntil = now + Math.min(3000, 3 * (now - started));
  return out;
});
