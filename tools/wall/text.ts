// Post text is plain text: normalised here, never rendered as HTML anywhere. @mentions and #topics are
// parsed from it with rules that leave emails, URLs, entities and punctuation alone.
import { MENTIONS_MAX, TOPIC_MAX_LENGTH, TOPICS_MAX } from './limits.js';

// Control characters except tab and newline, and the bidi overrides that make text read differently than it is stored.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/g;

// A high surrogate not followed by a low one, or a low one not preceded by a high one (String#toWellFormed is
// ES2024, not in Node 20's typings).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Well-formed (a lone UTF-16 surrogate becomes U+FFFD: stored as is, it is not UTF-8, and a page SQLite builds
 * around it is not valid JSON text), NFC, CRLF → LF, unsafe control characters removed, outer whitespace trimmed.
 */
export function plainText(raw: string): string {
  return raw.replace(LONE_SURROGATE, '\ufffd').normalize('NFC').replace(/\r\n?/g, '\n').replace(UNSAFE, '').trim();
}

/** Length in characters (code points), as the limits are documented: an emoji is one, not two UTF-16 units. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

// An @ that starts a token: not inside a word, an email, a URL path or a second @.
const MENTION = /(?<![\p{L}\p{N}_.@+\-/:=])@([A-Za-z][A-Za-z0-9_-]*)/gu;
const HANDLE_OK = /^[a-z][a-z0-9_-]*[a-z0-9]$/;

/**
 * Candidate handles mentioned in `text`, lowercased, distinct, in order, at most `max` (the caller keeps
 * those that exist). `@alice.` and `(@alice)` mention alice; `bob@alice.com`, `@alice.com`,
 * `@alice@host` and `x.com/@alice` do not.
 */
export function mentionCandidates(text: string, max = MENTIONS_MAX * 2): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const raw = m[1];
    const after = text.slice(m.index + 1 + raw.length);
    const handle = raw.replace(/[-_]+$/, '').toLowerCase();
    // Followed by "@host" or ".word": an address or a domain, not a mention.
    if (/^[-_]*(@|\.[\p{L}\p{N}])/u.test(after)) continue;
    if (handle.length < 3 || handle.length > 32 || !HANDLE_OK.test(handle)) continue;
    if (!out.includes(handle)) out.push(handle);
    if (out.length >= max) break;
  }
  return out;
}

// A # that starts a token: not inside a word, an HTML entity (&#39;), a URL fragment or a ## run.
const TOPIC = /(?<![\p{L}\p{N}_&/#])#([\p{L}\p{N}_-]+)/gu;

/**
 * The normal form of a topic: accents removed (NFKD without marks), lowercase, "_" and runs of "-" made one
 * "-", no leading or trailing "-". `#Machine_Learning`, `#machine-learning` and `#MACHINE--LEARNING` are
 * all "machine-learning". Null when nothing topic-like is left (no letter, or too long).
 */
export function normaliseTopic(raw: string): string | null {
  const t = raw
    .replace(/^#+/, '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/_/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!t || t.length > TOPIC_MAX_LENGTH || !/\p{L}/u.test(t) || !/^[\p{L}\p{N}-]+$/u.test(t)) return null;
  return t;
}

/** Distinct normalised topics of a text, in order, at most TOPICS_MAX. */
export function topicsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOPIC)) {
    const t = normaliseTopic(m[1]);
    if (t && !out.includes(t)) out.push(t);
    if (out.length >= TOPICS_MAX) break;
  }
  return out;
}
