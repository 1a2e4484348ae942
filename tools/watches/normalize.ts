// What a watch compares: the raw bytes, the page's visible text, or the text of a CSS selector's matches.
import { createHash } from 'node:crypto';
/** cheerio loads with the first text check, not at start-up. */
let cheerio: typeof import('cheerio');

export type WatchMode = 'raw' | 'text' | 'selector';

const isHtml = (contentType: string | undefined, body: Buffer): boolean => /html/i.test(contentType ?? '') || /^\s*<(!doctype|html)/i.test(body.subarray(0, 200).toString());

export async function normalize(mode: WatchMode, body: Buffer, contentType: string | undefined, selector?: string | null): Promise<Buffer> {
  if (mode === 'raw') return body;
  cheerio ??= await import('cheerio');
  const text = body.toString('utf8');
  if (!isHtml(contentType, body)) return Buffer.from(text.replace(/\s+/g, ' ').trim());
  const $ = cheerio.load(text);
  $('script, style, noscript, template').remove();
  const picked = mode === 'selector' && selector ? $(selector) : $('body').length ? $('body') : $.root();
  const out = picked
    .map((_i, el) => $(el).text())
    .get()
    .join('\n');
  return Buffer.from(out.replace(/[ \t\r\f\v]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim());
}

export const hashOf = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
