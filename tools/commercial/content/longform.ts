// Long pieces (blog post, newsletter, generated content): a title or subject line and a Markdown body whose
// word count must fall within ±15% of the order's. The title is the first heading, or a "Title:" /
// "Subject:" line at the top; the body is everything after it. A JSON reply ({title, body}) is read too.
import type { Parsed } from './attempts.js';
import { cleanValue } from './fields.js';
import { cleanReply, normalizeKey, parseJsonReply } from './reply.js';
import { countWords, wordCountProblem } from './words.js';

export interface LongForm {
  /** The title, subject line or headline; '' when the reply had none. */
  head: string;
  /** A preview line a newsletter may carry. */
  preview?: string;
  markdown: string;
  word_count: number;
}

const HEAD_LABELS = { title: ['title', 'headline', 'blog title', 'post title'], subject: ['subject', 'subject line', 'email subject'] };
const BODY_KEYS = ['markdown', 'body', 'content', 'text', 'article', 'post'].map(normalizeKey);

function fromJson(value: unknown, head: 'title' | 'subject'): { head: string; body: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const byKey = new Map(Object.entries(value).map(([k, v]) => [normalizeKey(k), v]));
  const body = BODY_KEYS.map((k) => byKey.get(k)).find((v): v is string => typeof v === 'string');
  if (!body) return undefined;
  const h = HEAD_LABELS[head].map((k) => byKey.get(normalizeKey(k))).find((v): v is string => typeof v === 'string');
  return { head: cleanValue(h ?? ''), body };
}

/** Splits the head off the top of a Markdown reply. */
function splitHead(text: string, head: 'title' | 'subject'): { head: string; preview?: string; body: string } {
  const lines = text.split('\n');
  const labels = new Set(HEAD_LABELS[head].map(normalizeKey));
  let found = '';
  let preview: string | undefined;
  let i = 0;
  // Up to the first lines of prose: a labelled head, a preview line, the first heading.
  for (; i < lines.length && i < 6; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const labelled = line.match(/^(?:#{1,6}\s+)?(?:\*\*|__)?\s*([A-Za-z][A-Za-z ]{0,20}?)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+)$/);
    if (labelled && labels.has(normalizeKey(labelled[1])) && !found) {
      found = cleanValue(labelled[2]);
      continue;
    }
    if (labelled && /^(preview|preview text|preheader)$/.test(normalizeKey(labelled[1]))) {
      preview = cleanValue(labelled[2]);
      continue;
    }
    const heading = line.match(/^#{1,3}\s+(.+?)\s*#*$/);
    if (heading && !found) {
      found = cleanValue(heading[1].replace(/^(\*\*|__)|(\*\*|__)$/g, ''));
      i++;
    }
    break;
  }
  return { head: found, ...(preview ? { preview } : {}), body: lines.slice(i).join('\n').trim() };
}

export interface LongFormRule {
  /** What the head is called: "title" (blog, generated) or "subject" (newsletter). */
  head: 'title' | 'subject';
  headRequired: boolean;
  target: number;
}

export function parseLongForm(text: string, rule: LongFormRule): Parsed<LongForm> {
  const clean = cleanReply(text);
  if (!clean) return { ok: false, problems: ['the reply was empty'] };
  const parts: { head: string; preview?: string; body: string } = fromJson(parseJsonReply(clean), rule.head) ?? splitHead(clean, rule.head);
  const problems: string[] = [];
  if (rule.headRequired && !parts.head) problems.push(rule.head === 'title' ? 'no title: start with "# <title>"' : 'no subject line: start with "Subject: <subject line>"');
  const words = wordCountProblem('the body', parts.body, rule.target);
  if (words) problems.push(words);
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: { head: parts.head, ...(parts.preview ? { preview: parts.preview } : {}), markdown: parts.body, word_count: countWords(parts.body) } };
}
