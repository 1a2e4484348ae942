// A URL source, fetched as browse fetches pages: through egress (private addresses refused, redirects
// re-checked), under the site's robots.txt (browse's Robots), with a byte cap and a time limit. HTML comes back
// for the DOM; plain text and JSON as sent; PDFs as their text (browse's pdfText). Failures are browse's
// errors (browseError): a blocked address 403, a bad URL 422, too large 413, unreachable 502.
import type { Egress } from '../../../src/egress/index.js';
import { GatewayError, validationError } from '../../../src/errors.js';
import { ACCEPT, decode, kindOf } from '../../browse/content-type.js';
import { browseError } from '../../browse/errors.js';
import { pdfText } from '../../browse/pdf.js';
import { Robots } from '../../browse/robots.js';
import { FETCH_MAX_BYTES, FETCH_TIMEOUT_MS, PAGE_TEXT_MAX_CHARS } from './limits.js';

export interface Fetched {
  kind: 'html' | 'text';
  body: string;
  finalUrl: string;
  contentType: string;
  /** Text cut at PAGE_TEXT_MAX_CHARS (a text or PDF page; HTML is cut after its text is read). */
  truncated: boolean;
}


const robotsFor = new WeakMap<Egress, Robots>();

export function checkUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw validationError([{ loc: ['source'], msg: 'source_type url needs an absolute http(s) URL.', type: 'url_parsing' }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw validationError([{ loc: ['source'], msg: 'Only http and https URLs can be fetched.', type: 'url_scheme' }]);
  url.hash = '';
  return url;
}

export async function fetchSource(egress: Egress, input: string, now: number, signal?: AbortSignal): Promise<Fetched> {
  const url = checkUrl(input);
  let robots = robotsFor.get(egress);
  if (!robots) robotsFor.set(egress, (robots = new Robots(egress, 10_000)));
  try {
    await robots.check(url, now, signal);
    const res = await egress.fetch(url, { maxBytes: FETCH_MAX_BYTES, totalTimeoutMs: FETCH_TIMEOUT_MS, headers: { accept: ACCEPT }, signal });
    if (res.status < 200 || res.status > 299) {
      throw new GatewayError('upstream_error', `${new URL(res.url).host} answered ${res.status}.`, { extra: { reason: 'upstream_status', upstream_status: res.status } });
    }
    const final = new URL(res.url);
    if (final.origin !== url.origin) await robots.check(final, now, signal);
    const contentType = res.headers['content-type'] ?? '';
    const mime = contentType.split(';')[0]!.trim().toLowerCase();
    const kind = kindOf(mime, res.body);
    const cut = (text: string, truncated = false) => ({ body: text.slice(0, PAGE_TEXT_MAX_CHARS), truncated: truncated || text.length > PAGE_TEXT_MAX_CHARS });
    const base = { finalUrl: res.url, contentType: mime };
    if (kind === 'html') return { ...base, kind: 'html', body: decode(res.body, contentType, kind), truncated: false };
    if (kind === 'pdf') return { ...base, kind: 'text', ...cut((await pdfText(res.body)).text) };
    if (kind === 'text' || kind === 'json') return { ...base, kind: 'text', ...cut(decode(res.body, contentType, kind)) };
    throw new GatewayError('unsupported_media_type', `Extraction reads HTML, text, JSON and PDF; ${final.host} sent ${mime || 'no content type'}.`, { extra: { reason: 'unsupported_type', content_type: mime || null } });
  } catch (err) {
    throw browseError(err);
  }
}
