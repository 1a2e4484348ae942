// The audited page, fetched as browse and extraction fetch pages: through egress (private addresses refused,
// every redirect re-checked), under the site's robots.txt (browse's Robots), with a byte cap and a time limit,
// timed from the first request to the last byte. A page that is not HTML, or answers other than 2xx, cannot be
// audited: the order fails (and is released). Failures are browse's errors (browseError).
import { performance } from 'node:perf_hooks';
import type { Egress } from '../../../src/egress/index.js';
import { GatewayError } from '../../../src/errors.js';
import { decode, kindOf } from '../../browse/content-type.js';
import { browseError } from '../../browse/errors.js';
import { Robots } from '../../browse/robots.js';
import type { Page } from './checks.js';

/** Largest page audited (413 beyond, released). */
export const SEO_MAX_BYTES = 2 * 1024 * 1024;
/** Whole-fetch time limit, redirects included. */
export const SEO_TIMEOUT_MS = 15_000;

const robotsFor = new WeakMap<Egress, Robots>();

export async function fetchPage(egress: Egress, input: string, now: number, signal?: AbortSignal): Promise<Page> {
  const url = new URL(input);
  url.hash = '';
  let robots = robotsFor.get(egress);
  if (!robots) robotsFor.set(egress, (robots = new Robots(egress, 10_000)));
  try {
    await robots.check(url, now, signal);
    const t0 = performance.now();
    const res = await egress.fetch(url, { maxBytes: SEO_MAX_BYTES, totalTimeoutMs: SEO_TIMEOUT_MS, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' }, signal });
    const elapsedMs = performance.now() - t0;
    if (res.status < 200 || res.status > 299) {
      throw new GatewayError('upstream_error', `${new URL(res.url).host} answered ${res.status}; only a page that answers 2xx can be audited.`, { extra: { reason: 'upstream_status', upstream_status: res.status } });
    }
    const final = new URL(res.url);
    if (final.origin !== url.origin) await robots.check(final, now, signal);
    const contentType = res.headers['content-type'] ?? '';
    const mime = contentType.split(';')[0]!.trim().toLowerCase();
    const kind = kindOf(mime, res.body);
    if (kind !== 'html') {
      throw new GatewayError('unsupported_media_type', `An SEO audit reads an HTML page; ${final.host} sent ${mime || 'no content type'}.`, { extra: { reason: 'unsupported_type', content_type: mime || null } });
    }
    return { url: url.href, finalUrl: res.url, status: res.status, redirects: res.redirects, headers: res.headers, html: decode(res.body, contentType, kind), bytes: res.body.length, elapsedMs };
  } catch (err) {
    throw browseError(err);
  }
}
