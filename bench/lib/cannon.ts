// autocannon wrapper: same connections, warm-up and duration for every target, results as plain numbers.
// Every target first runs WARMUP_S seconds of the same load, unmeasured, so each side is compared at its
// steady state (JIT-compiled code, warm caches) rather than by how fast it gets there.
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Builds a fresh body per request (unique JSON-RPC ids, distinct keys…). */
  makeBody?: () => string | Buffer;
  /** Builds a fresh path per request (distinct keys, varied queries). */
  makePath?: () => string;
  connections?: number;
  duration?: number;
  /** Seconds of unmeasured load first; 0 for none. */
  warmup?: number;
}

export const DEFAULTS = { connections: 50, duration: 10, warmup: 2 };

export async function load(name: string, o: LoadOptions): Promise<LoadResult> {
  const connections = o.connections ?? DEFAULTS.connections;
  const warmup = o.warmup ?? DEFAULTS.warmup;
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    headers: o.headers,
    body: o.body,
    connections,
    duration: o.duration ?? DEFAULTS.duration,
    ...(warmup > 0 ? { warmup: { connections, duration: warmup } } : {}),
    requests:
      o.makeBody || o.makePath
        ? [{ setupRequest: (req) => ({ ...req, ...(o.makeBody ? { body: o.makeBody() } : {}), ...(o.makePath ? { path: o.makePath() } : {}) }) }]
        : undefined,
  });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function table(rows: LoadResult[], reference?: Record<string, number>): string {
  const lines = ['| target | req/s | p50 ms | p99 ms | errors | non-2xx | ratios |', '|---|---:|---:|---:|---:|---:|---|'];
  for (const r of rows) {
    const ratios = reference
      ? Object.entries(reference)
          .map(([k, v]) => `${(r.rps / v).toFixed(2)}× ${k}`)
          .join(', ')
      : '';
    lines.push(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${ratios} |`);
  }
  return lines.join('\n');
}
