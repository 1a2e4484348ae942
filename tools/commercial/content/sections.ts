// A reply cut into its items. Models number and mark items in many ways, so every layout below is tried and
// the item parser keeps the first that yields enough good items (list.ts):
//   1. labelled:   "### Variation 1", "**Email 2 — Welcome**", "Post 3 (X):", "Ad #4"
//   2. numbered headings: "## 1. Acme Mug"
//   3. headings of one level: "## Acme Mug", each level tried from the top
//   4. lead labels: a new item wherever its first field's label comes again ("Subject:", "Headline:")
//   5. a numbered list at the margin: "1. …", "2) …"
//   6. lines all in bold: "**Acme Mug**"
//   7. separators: "---" between items
//   8. paragraphs (for short items such as posts): blank lines between items
import { normalizeKey } from './reply.js';

export interface Section {
  /** What followed the item's marker on its own line: "Welcome" of "## Email 1: Welcome". */
  title: string;
  /** The lines after the marker line. */
  body: string;
  /** The marker was a Markdown heading (its title is a name, not the start of the text). */
  heading: boolean;
}

export interface SplitOptions {
  /** Words that name an item: "variation", "ad"… */
  words: string[];
  /** Labels of an item's first field, which start a new item when no other marker does. */
  leadLabels?: string[];
  /** Labels of fields, never taken for an item's bold title. */
  fieldLabels?: string[];
  /** Also try blank-line paragraphs as items. */
  paragraphs?: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const stripEmphasis = (s: string) => s.replace(/^(\*\*|__)\s*/, '').replace(/\s*(\*\*|__)$/, '').trim();

/** Cuts `lines` at each line `start` recognises; what comes before the first is a preamble and dropped. */
function cut(lines: string[], start: (line: string) => { title: string; heading: boolean } | undefined): Section[] {
  const out: Section[] = [];
  let cur: { title: string; heading: boolean; body: string[] } | undefined;
  for (const line of lines) {
    const hit = start(line);
    if (hit) {
      if (cur) out.push({ title: cur.title, heading: cur.heading, body: cur.body.join('\n').trim() });
      cur = { ...hit, body: [] };
    } else cur?.body.push(line);
  }
  if (cur) out.push({ title: cur.title, heading: cur.heading, body: cur.body.join('\n').trim() });
  return out;
}

/** Lines outside code fences get cut; a fenced block never holds an item marker. */
function codeFenceMask(lines: string[]): boolean[] {
  let open: string | undefined;
  return lines.map((l) => {
    const f = l.match(/^\s{0,3}(`{3,}|~{3,})/);
    if (f) {
      if (!open) open = f[1];
      else if (f[1][0] === open[0] && f[1].length >= open.length) open = undefined;
      return true;
    }
    return open !== undefined;
  });
}

export function splitSections(text: string, opts: SplitOptions): Section[][] {
  const lines = text.split('\n');
  const inCode = codeFenceMask(lines);
  const at = (fn: (l: string) => { title: string; heading: boolean } | undefined) => {
    let i = -1;
    return cut(lines, (l) => (inCode[++i] ? undefined : fn(l)));
  };
  const words = [...opts.words].sort((a, b) => b.length - a.length).map(escape).join('|');
  const labelled = new RegExp(
    `^\\s{0,3}(#{1,6}\\s*)?(?:[-*+]\\s+)?(?:\\*\\*|__)?\\s*(?:${words})\\s*(?:#|no\\.?|number)?\\s*(\\d{1,2})\\b(?:\\s*\\([^)]*\\))?(?:\\s*(?:\\*\\*|__))?\\s*[:.)\\-–—]?\\s*(.*)$`,
    'i',
  );
  const candidates: Section[][] = [];
  candidates.push(at((l) => {
    const m = l.match(labelled);
    return m ? { title: stripEmphasis(m[3]), heading: !!m[1] } : undefined;
  }));
  candidates.push(at((l) => {
    const m = l.match(/^\s{0,3}#{1,6}\s+(?:\*\*|__)?\s*\d{1,2}\s*[.):]\s*(.*)$/);
    return m ? { title: stripEmphasis(m[1]), heading: true } : undefined;
  }));
  for (let level = 1; level <= 6; level++) {
    const re = new RegExp(`^\\s{0,3}#{${level}}\\s+(.*)$`);
    const split = at((l) => {
      const m = l.match(re);
      return m ? { title: stripEmphasis(m[1].replace(/\s+#+\s*$/, '')), heading: true } : undefined;
    });
    if (split.length >= 2) candidates.push(split);
  }
  if (opts.leadLabels?.length) {
    const leads = new Set(opts.leadLabels.map(normalizeKey));
    candidates.push(at((l) => {
      const m = l.match(/^\s{0,3}(?:[-*+]\s+)?(?:\*\*|__)?\s*([A-Za-z][A-Za-z -]{0,30}?)\s*(?:\*\*|__)?\s*:/);
      return m && leads.has(normalizeKey(m[1])) ? { title: l, heading: false } : undefined;
    }));
  }
  candidates.push(at((l) => {
    const m = l.match(/^\s?\d{1,2}[.)]\s+(.*)$/);
    return m ? { title: m[1].trim(), heading: false } : undefined;
  }));
  const fieldLabels = new Set((opts.fieldLabels ?? []).map(normalizeKey));
  candidates.push(at((l) => {
    const m = l.match(/^\s{0,3}(?:\*\*|__)([^*_]+?)(?:\*\*|__)\s*$/);
    if (!m || m[1].trim().endsWith(':') || fieldLabels.has(normalizeKey(m[1]))) return undefined;
    return { title: m[1].trim(), heading: true };
  }));
  const bySeparator = text.split(/\n\s{0,3}(?:-{3,}|\*{3,}|_{3,})\s*\n/).map((s) => s.trim()).filter(Boolean);
  if (bySeparator.length >= 2) candidates.push(bySeparator.map((s) => ({ title: '', body: s, heading: false })));
  // Paragraphs only when nothing marks the items: multi-paragraph items would otherwise fall apart.
  if (opts.paragraphs && !candidates.some((c) => c.length >= 2)) {
    candidates.push(text.split(/\n\s*\n/).map((s) => s.trim()).filter(Boolean).map((s) => ({ title: '', body: s, heading: false })));
  }
  return candidates.filter((c) => c.length > 0);
}
