// HTML to readable content: a linkedom DOM (light, no layout engine), links made absolute against the final URL,
// an optional CSS selector, Readability for the main content and metadata, Turndown for Markdown.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { tables } from '@joplin/turndown-plugin-gfm';
import { validationError } from '../../src/errors.js';

type Doc = ReturnType<typeof parseHTML>['document'];

export type Format = 'markdown' | 'text' | 'html';

export interface Extracted {
  title: string | null;
  byline: string | null;
  lang: string | null;
  excerpt: string | null;
  content: string;
  headings: { level: number; text: string }[];
  links: { text: string; href: string }[];
}

const MAX_LINKS = 500;
const MAX_HEADINGS = 200;

// Tables as GitHub pipe tables, so their rows survive into Markdown (research answers a price question from them).
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' }).use(tables);

const clean = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();
const orNull = (s: string | null | undefined): string | null => clean(s) || null;

function absolutize(doc: Doc, base: string): void {
  for (const [tag, attr] of [['a', 'href'], ['img', 'src'], ['link', 'href']] as const) {
    for (const el of doc.querySelectorAll(`${tag}[${attr}]`)) {
      try {
        el.setAttribute(attr, new URL(el.getAttribute(attr)!, base).href);
      } catch {
        el.removeAttribute(attr); // an href no URL parser accepts leads nowhere
      }
    }
  }
}

function pick(doc: Doc, selector: string): string {
  let found: ReturnType<Doc['querySelectorAll']>[number][];
  try {
    found = [...doc.querySelectorAll(selector)];
  } catch {
    throw validationError([{ loc: ['selector'], msg: `"${selector}" is not a valid CSS selector.`, type: 'value_error' }]);
  }
  if (found.length === 0) throw validationError([{ loc: ['selector'], msg: `Nothing on the page matches "${selector}".`, type: 'value_error' }]);
  return found.map((el) => el.outerHTML).join('\n');
}

function outline(html: string): Pick<Extracted, 'headings' | 'links'> {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const headings = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')]
    .slice(0, MAX_HEADINGS)
    .map((h) => ({ level: Number(h.tagName.slice(1)), text: clean(h.textContent) }))
    .filter((h) => h.text);
  const seen = new Set<string>();
  const links: Extracted['links'] = [];
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href')!;
    if (!/^https?:/i.test(href) || seen.has(href)) continue;
    seen.add(href);
    links.push({ text: clean(a.textContent), href });
    if (links.length >= MAX_LINKS) break;
  }
  return { headings, links };
}

function render(html: string, format: Format): string {
  if (format === 'html') return html.trim();
  if (format === 'text') {
    const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
    return (document.body.textContent ?? '').replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
  }
  return turndown.turndown(html).trim();
}

/** The readable part of an HTML page at `url` (the final URL), or of what `selector` picks from it. */
export function extractHtml(source: string, url: string, format: Format, selector?: string): Extracted {
  const { document } = parseHTML(source);
  absolutize(document, url);
  const lang = orNull(document.documentElement?.getAttribute('lang'));
  const picked = selector ? pick(document, selector) : undefined;
  const titleTag = orNull(document.querySelector('title')?.textContent);
  // Readability rewrites the DOM it reads; with a selector it only supplies the metadata.
  let article: ReturnType<Readability['parse']> = null;
  try {
    article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { keepClasses: false }).parse();
  } catch {
    article = null; // a page Readability cannot read still has a body
  }
  const html = picked ?? article?.content ?? document.body?.innerHTML ?? '';
  return {
    title: orNull(article?.title) ?? titleTag,
    byline: orNull(article?.byline),
    lang: lang ?? orNull(article?.lang),
    excerpt: orNull(article?.excerpt),
    content: render(html, format),
    ...outline(html),
  };
}
