// One page fetched for browse: robots.txt first, then the page through egress, answered from the per-URL cache
// when the site confirms it unchanged (If-None-Match / If-Modified-Since → 304). The decoded result of each
// format and selector is kept with the cached bytes, so a revalidated visit does not parse the page again.
import type { Egress } from '../../src/egress/index.js';
import { GatewayError, validationError } from '../../src/errors.js';
import { ByteLru } from '../../src/byte-lru.js';
import { ACCEPT, decode, kindOf, type Kind } from './content-type.js';
import { browseError } from './errors.js';
import type { Extracted, Format } from './extract.js';
import { extractHtmlOffLoop } from './extract-off-loop.js';
import { pdfText } from './pdf.js';
import { Robots } from './robots.js';

export interface BrowseLimits {
  maxBytes: number;
  timeoutMs: number;
  cacheBytes: number;
}

export type { Kind } from './content-type.js';

export interface Page extends Extracted {
  finalUrl: string;
  status: number;
  contentType: string;
  kind: Kind;
  pages?: number;
  cache: 'miss' | 'revalidated';
}

interface Cached {
  finalUrl: string;
  status: number;
  contentType: string;
  kind: Kind;
  etag?: string;
  lastModified?: string;
  body: Buffer;
  derived: Map<string, Extracted & { pages?: number }>;
  bytes: number;
}

const plain = (content: string): Extracted => ({ title: null, byline: null, lang: null, excerpt: null, content, headings: [], links: [] });

export class Browser {
  private readonly cache: ByteLru<Cached>;
  private readonly robots: Robots;

  constructor(private readonly egress: Egress, private readonly limits: BrowseLimits) {
    this.cache = new ByteLru(limits.cacheBytes);
    this.robots = new Robots(egress, Math.min(limits.timeoutMs, 10_000));
  }

  async browse(input: string, format: Format, selector: string | undefined, now: number, signal?: AbortSignal): Promise<Page> {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw validationError([{ loc: ['url'], msg: 'Not an absolute URL.', type: 'url_parsing' }]);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw validationError([{ loc: ['url'], msg: 'Only http and https URLs can be browsed.', type: 'url_scheme' }]);
    }
    url.hash = '';
    try {
      await this.robots.check(url, now, signal);
      const { entry, revalidated } = await this.load(url, signal);
      // A redirect to another site answers to that site's robots.txt as well.
      const final = new URL(entry.finalUrl);
      if (final.origin !== url.origin) await this.robots.check(final, now, signal);
      return { ...(await this.derive(url.href, entry, format, selector)), finalUrl: entry.finalUrl, status: entry.status, contentType: entry.contentType.split(';')[0]!.trim().toLowerCase(), kind: entry.kind, cache: revalidated ? 'revalidated' : 'miss' };
    } catch (err) {
      throw browseError(err);
    }
  }

  private async load(url: URL, signal?: AbortSignal): Promise<{ entry: Cached; revalidated: boolean }> {
    const cached = this.cache.get(url.href);
    const headers: Record<string, string> = { accept: ACCEPT };
    if (cached?.etag) headers['if-none-match'] = cached.etag;
    if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
    const res = await this.egress.fetch(url, { maxBytes: this.limits.maxBytes, totalTimeoutMs: this.limits.timeoutMs, headers, signal });
    if (res.status === 304 && cached) return { entry: cached, revalidated: true };
    if (res.status < 200 || res.status > 299) {
      throw new GatewayError('upstream_error', `${new URL(res.url).host} answered ${res.status}.`, { extra: { reason: 'upstream_status', upstream_status: res.status } });
    }
    const contentType = res.headers['content-type'] ?? '';
    const mime = contentType.split(';')[0]!.trim().toLowerCase();
    const kind = kindOf(mime, res.body);
    if (!kind) {
      throw new GatewayError('unsupported_media_type', `browse reads HTML, text, JSON and PDF; ${new URL(res.url).host} sent ${mime || 'no content type'}.`, {
        extra: { reason: 'unsupported_type', content_type: mime || null },
      });
    }
    const entry: Cached = { finalUrl: res.url, status: res.status, contentType, kind, body: res.body, derived: new Map(), bytes: res.body.length + 512 };
    if (res.headers.etag) entry.etag = res.headers.etag;
    if (res.headers['last-modified']) entry.lastModified = res.headers['last-modified'];
    if (entry.etag || entry.lastModified) {
      if (!/no-store/i.test(res.headers['cache-control'] ?? '')) this.cache.set(url.href, entry, entry.bytes);
    } else {
      this.cache.delete(url.href); // nothing to revalidate with: the old copy cannot be confirmed
    }
    return { entry, revalidated: false };
  }

  private async derive(key: string, entry: Cached, format: Format, selector: string | undefined): Promise<Extracted & { pages?: number }> {
    if (selector !== undefined && entry.kind !== 'html') {
      throw validationError([{ loc: ['selector'], msg: `A selector applies to HTML pages; this one is ${entry.kind}.`, type: 'value_error' }]);
    }
    const id = entry.kind === 'html' ? `${format}\u0000${selector ?? ''}` : '';
    const hit = entry.derived.get(id);
    if (hit) return hit;
    let out: Extracted & { pages?: number };
    if (entry.kind === 'html') out = await extractHtmlOffLoop(decode(entry.body, entry.contentType, 'html'), entry.finalUrl, format, selector);
    else if (entry.kind === 'pdf') {
      const pdf = await pdfText(entry.body);
      out = { ...plain(pdf.text), title: pdf.title, pages: pdf.pages };
    } else out = plain(decode(entry.body, entry.contentType, entry.kind)); // text and JSON pass through as sent
    entry.derived.set(id, out);
    if (this.cache.get(key) === entry) {
      entry.bytes += out.content.length * 2 + 256;
      this.cache.set(key, entry, entry.bytes); // counts the derived text against the cache's bound
    }
    return out;
  }
}
