// What the configured cache bounds predict for a gateway's resident memory, and whether a series of samples
// levelled off. The prediction is the control's peak resident memory (the same load on a gateway whose caches hold
// next to nothing: code, threads, V8 heaps at work) plus what each bound lets its cache hold; a cache on the V8 heap
// counts with the heap's growth past what is live (GATEWAY_HEAP_GROWTH_PERCENT).
import type { Config } from '../../src/config.js';

export interface Sample {
  /** Seconds since the load started. */
  t: number;
  rss: number;
  anon: number;
  file: number;
  heapUsed: number;
  heapTotal: number;
  db: number;
  requests: number;
  sessions: number;
}

export interface PredictionPart {
  part: string;
  bound: string;
  bytes: number;
}

const MB = 1024 * 1024;
const mib = (b: number) => `${(b / MB).toFixed(0)} MB`;

/**
 * The bounds the soak's load can fill (the others, such as the blob cache, stay empty under it) on top of the
 * control's peak. `sessionHeap` is the heap one held MCP session keeps alive (measured).
 */
export function predict(config: Config, controlPeak: number, sessionHeap: number): PredictionPart[] {
  const c = config.caches;
  // The writer, the event-loop reader and each reader thread; the checkpoint thread keeps 256 KB.
  const connections = 2 + config.readerThreads;
  const page = c.sqlite.cacheKb * 1024;
  // V8's own choice may reach four times what is live.
  const growth = c.heapGrowthPercent > 0 ? 1 + c.heapGrowthPercent / 100 : 4;
  return [
    { part: 'control: the same load, caches (near) empty; its peak', bound: 'measured', bytes: controlPeak },
    { part: 'SQLite page caches', bound: `${connections} connections × GATEWAY_SQLITE_CACHE_KB ${c.sqlite.cacheKb}`, bytes: connections * page },
    {
      part: 'MCP sessions',
      bound: `GATEWAY_MCP_MAX_SESSIONS ${config.mcpMaxSessions} × ${(sessionHeap / 1024).toFixed(0)} KB live × ${growth} (GATEWAY_HEAP_GROWTH_PERCENT ${c.heapGrowthPercent})`,
      bytes: config.mcpMaxSessions * sessionHeap * growth,
    },
    { part: 'wall pages (outside the heap)', bound: `GATEWAY_WALL_PAGE_CACHE_BYTES ${mib(c.wallPageBytes)}`, bytes: c.wallPageBytes },
  ];
}

/** Least-squares slope of `ys` over `xs`, per unit of x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export interface Verdict {
  /** MB per minute over the last third of the load (resident anonymous memory). */
  slopeMbPerMin: number;
  /** Mean resident anonymous memory of the middle and the last third. */
  middleMean: number;
  lastMean: number;
  peakAnon: number;
  levelled: boolean;
  withinPrediction: boolean;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Levelled off: the last third of the load holds, on average, at most 3% more resident anonymous memory than the
 * middle third (a garbage collector's sawtooth moves a slope over a few samples; a leak moves the thirds' means).
 * Within the prediction: its peak is at most the predicted total.
 */
export function verdict(samples: Sample[], predicted: number): Verdict {
  const third = Math.floor(samples.length / 3);
  const middle = samples.slice(third, 2 * third).map((s) => s.anon);
  const tail = samples.slice(2 * third);
  const perMin = slope(tail.map((s) => s.t / 60), tail.map((s) => s.anon));
  const middleMean = mean(middle);
  const lastMean = mean(tail.map((s) => s.anon));
  const peakAnon = Math.max(...samples.map((s) => s.anon));
  return { slopeMbPerMin: perMin / MB, middleMean, lastMean, peakAnon, levelled: lastMean <= middleMean * 1.03, withinPrediction: peakAnon <= predicted };
}
