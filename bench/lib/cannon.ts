// autocannon wrapper: same connections and duration for every target, results as plain numbers.
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
}

export const DEFAULTS = { connections: 50, duration: 10 };

export async function load(name: string, o: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    headers: o.headers,
    body: o.body,
    connections: o.connections ?? DEFAULTS.connections,
    duration: o.duration ?? DEFAULTS.duration,
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
