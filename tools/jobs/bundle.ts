// fetch_bundle: URLs fetched through egress (a few at a time) into one JSON bundle stored as an artifact.
// A URL that fails is recorded in the bundle with its error; it does not fail the job. The bodies downloaded are
// bounded by what the bundle can keep (the owner's artifact size): a URL is fetched with at most what is left of it,
// and once it is spent the URLs left are listed unfetched, so a bundle kept to 1 MB no longer downloads 20 MB.
import { createHash } from 'node:crypto';
import { isEgressError } from '../../src/egress/index.js';
import type { WorkerContext } from '../../src/workers.js';
import { AGENT_MAX_BYTES, AGENT_MAX_TTL, ANON_MAX_BYTES, ANON_MAX_TTL, storeArtifact } from '../artifacts/service.js';
import { contentOf } from '../../src/blobs/content.js';

export const BUNDLE_MAX_URLS = 20;
export const BUNDLE_CONCURRENCY = 4;
export const BUNDLE_PER_URL_BYTES = 1024 * 1024;

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|[\w.+-]*\+(json|xml)))/i;

export interface BundleItem {
  url: string;
  final_url: string | null;
  ok: boolean;
  status: number | null;
  content_type: string | null;
  bytes: number;
  sha256: string | null;
  text?: string;
  base64?: string;
  error?: { code: string; message: string };
}

const unfetched = (url: string, error: { code: string; message: string }): BundleItem => ({ url, final_url: null, ok: false, status: null, content_type: null, bytes: 0, sha256: null, error });

/** An item, and the body bytes its fetch downloaded (a refused body's too: they were downloaded all the same). */
async function fetchOne(ctx: WorkerContext, url: string, maxBytes: number): Promise<{ item: BundleItem; downloaded: number }> {
  try {
    const r = await ctx.services.egress.fetch(url, { maxBytes, totalTimeoutMs: 15_000 });
    const ct = r.headers['content-type'] ?? null;
    const body = TEXTUAL.test(ct ?? '') ? { text: r.body.toString('utf8') } : { base64: r.body.toString('base64') };
    const item: BundleItem = {
      url,
      final_url: r.url,
      ok: r.status >= 200 && r.status < 300,
      status: r.status,
      content_type: ct,
      bytes: r.body.length,
      sha256: createHash('sha256').update(r.body).digest('hex'),
      ...body,
    };
    return { item, downloaded: r.body.length };
  } catch (err) {
    const downloaded = isEgressError(err) ? (err.received ?? 0) : 0;
    if (isEgressError(err) && err.code === 'too_large' && maxBytes < BUNDLE_PER_URL_BYTES) {
      return { item: unfetched(url, { code: 'dropped', message: `body left out: larger than the ${maxBytes} bytes left of the bundle` }), downloaded };
    }
    return { item: unfetched(url, isEgressError(err) ? { code: err.code, message: err.message } : { code: 'error', message: 'fetch failed' }), downloaded };
  }
}

export async function runFetchBundle(ctx: WorkerContext, jobId: string, urls: string[], agentId: string | null) {
  const max = agentId ? AGENT_MAX_BYTES : ANON_MAX_BYTES;
  const items: BundleItem[] = new Array(urls.length);
  let next = 0;
  // Bytes received so far: a fetch starts only while some of the bundle is left, and may take at most that, so the
  // download stays under the bundle's size plus what the lanes have in flight (BUNDLE_CONCURRENCY bodies).
  let received = 0;
  const lane = async () => {
    while (next < urls.length) {
      const i = next++;
      const left = Math.min(BUNDLE_PER_URL_BYTES, max - received);
      if (left <= 0) {
        items[i] = unfetched(urls[i], { code: 'dropped', message: `not fetched: the bundle's ${max} bytes were taken by the URLs before it` });
        continue;
      }
      const { item, downloaded } = await fetchOne(ctx, urls[i], left);
      items[i] = item;
      received += downloaded;
    }
  };
  await Promise.all(Array.from({ length: Math.min(BUNDLE_CONCURRENCY, urls.length) }, lane));
  const bytes = bundleWithin(jobId, new Date(ctx.clock.now()).toISOString(), items, max);
  const artifact = await storeArtifact(ctx, {
    content: contentOf(bytes),
    contentType: 'application/json',
    filename: `${jobId}-bundle.json`,
    ttlSeconds: agentId ? AGENT_MAX_TTL : ANON_MAX_TTL,
    agentId,
    source: 'job',
  });
  return {
    artifact,
    urls: items.map(({ text: _t, base64: _b, ...meta }) => meta),
    succeeded: items.filter((i) => i.ok).length,
    failed: items.filter((i) => !i.ok).length,
  };
}

/** What an item adds to the bundle: its JSON at the bundle's indentation, give or take the lines' deeper indent. */
const sizeOf = (item: BundleItem): number => Buffer.byteLength(JSON.stringify(item, null, 1));
/** Room for what sizeOf leaves out: the document's own lines, and each item's comma and deeper indent. */
const FRAME_BYTES = 256;
const PER_ITEM_BYTES = 64;

/**
 * The bundle's JSON within `max` bytes: every item's metadata, bodies dropped from the largest down. Each item is
 * measured once and the bundle serialised once (again only if the estimate fell short): serialising the whole
 * bundle after each drop took seconds of the main thread for 20 bodies of a megabyte.
 */
export function bundleWithin(jobId: string, fetchedAt: string, items: BundleItem[], max: number): Buffer {
  const sizes = items.map(sizeOf);
  let total = FRAME_BYTES + items.length * PER_ITEM_BYTES + sizes.reduce((a, b) => a + b, 0);
  const order = [...items.keys()].sort((a, b) => items[b].bytes - items[a].bytes);
  const drop = (i: number) => {
    if (items[i].text === undefined && items[i].base64 === undefined) return;
    delete items[i].text;
    delete items[i].base64;
    items[i].error ??= { code: 'dropped', message: `body left out: the bundle is limited to ${max} bytes` };
    const size = sizeOf(items[i]);
    total += size - sizes[i];
    sizes[i] = size;
  };
  for (const i of order) {
    if (total <= max) break;
    drop(i);
  }
  for (;;) {
    const bytes = Buffer.from(JSON.stringify({ job_id: jobId, fetched_at: fetchedAt, items }, null, 1));
    const next = order.find((i) => items[i].text !== undefined || items[i].base64 !== undefined);
    if (bytes.length <= max || next === undefined) return bytes;
    drop(next);
  }
}
