// The `browse` verb (spec: MCP-only verbs, issue 22): the readable content of a web page, fetched through egress
// (every SSRF rule, redirects re-checked) under the site's robots.txt, as Markdown, text or cleaned HTML.
// Paid per call ($0.002): a free API key covers 1,000 browses a month (TOOL_QUOTA), x402 or credits pay beyond it.
import { z } from 'zod';
import type { Egress } from '../../src/egress/index.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { Browser } from './page.js';

const BrowseInput = z.object({
  url: z.string().describe('The http(s) URL to read.'),
  format: z.enum(['markdown', 'text', 'html']).default('markdown').describe('How to return an HTML page’s content: markdown (default), text or cleaned html.'),
  selector: z.string().min(1).max(500).optional().describe('A CSS selector: only what it matches is returned (HTML pages).'),
  max_chars: z.number().int().positive().optional().describe('Most characters of content to return (capped by the gateway’s limit).'),
});

const BrowseOutput = z.object({
  url: z.string().describe('The URL asked for.'),
  final_url: z.string().describe('The URL after redirects.'),
  status: z.number().int(),
  content_type: z.string().describe('The MIME type the site sent.'),
  kind: z.enum(['html', 'text', 'json', 'pdf']),
  format: z.enum(['markdown', 'text', 'html']).describe('The format of `content` (text and JSON pages come as sent, PDFs as text).'),
  title: z.string().nullable(),
  byline: z.string().nullable(),
  lang: z.string().nullable(),
  excerpt: z.string().nullable(),
  content: z.string(),
  truncated: z.boolean(),
  total_chars: z.number().int().describe('Length of the whole content before max_chars.'),
  headings: z.array(z.object({ level: z.number().int(), text: z.string() })),
  links: z.array(z.object({ text: z.string(), href: z.string() })).describe('Absolute http(s) links in the content.'),
  pages: z.number().int().optional().describe('Page count of a PDF.'),
  cache: z.enum(['miss', 'revalidated']).describe('revalidated: the site confirmed the cached copy (304).'),
});

// One Browser (cache, robots) per gateway: keyed on its egress, which each gateway owns.
const browsers = new WeakMap<Egress, Browser>();

export function browserOf(ctx: Pick<ToolContext, 'services' | 'config'>): Browser {
  const egress = ctx.services.egress;
  let b = browsers.get(egress);
  if (!b) {
    const { maxBytes, timeoutMs, cacheBytes } = ctx.config.browse;
    b = new Browser(egress, { maxBytes, timeoutMs, cacheBytes });
    browsers.set(egress, b);
  }
  return b;
}

export const browse = defineTool({
  name: 'browse',
  title: 'Read a web page',
  toolset: 'verbs',
  description:
    'Fetches a public web page and returns its readable main content (Markdown by default) with title, byline, language, final URL, headings and absolute links. Plain text and JSON come as sent, PDFs as their text. Honours robots.txt; private addresses are refused.',
  input: BrowseInput,
  output: BrowseOutput,
  auth: 'paid',
  price: { usd: '0.002' },
  expose: { mcpOnly: true },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    const page = await browserOf(ctx).browse(input.url, input.format, input.selector, ctx.clock.now(), ctx.signal);
    const limit = Math.min(input.max_chars ?? ctx.config.browse.maxChars, ctx.config.browse.maxChars);
    const { finalUrl, contentType, content, pages, ...rest } = page;
    return {
      url: input.url,
      final_url: finalUrl,
      content_type: contentType,
      format: page.kind === 'html' ? input.format : ('text' as const), // text, JSON and PDF text come as they are
      ...rest,
      content: content.length > limit ? content.slice(0, limit) : content,
      truncated: content.length > limit,
      total_chars: content.length,
      ...(pages !== undefined ? { pages } : {}),
    };
  },
});

export const browseTools = [browse];
