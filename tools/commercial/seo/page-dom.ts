// The small DOM readers and verdicts every quick-audit check uses (checks.ts).
import type { parseHTML } from 'linkedom';

export type Doc = ReturnType<typeof parseHTML>['document'];
export type El = NonNullable<ReturnType<Doc['querySelector']>>;

export const text = (e: El | null | undefined): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
export const all = (doc: Doc, sel: string): El[] => [...doc.querySelectorAll(sel)] as El[];
export const quote = (s: string, max = 80) => JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
export const list = (xs: string[], max = 5) => xs.slice(0, max).join(', ') + (xs.length > max ? ` and ${xs.length - max} more` : '');
export const metaContent = (doc: Doc, attr: 'name' | 'property', name: string): string[] =>
  all(doc, 'meta')
    .filter((m) => (m.getAttribute(attr) ?? '').trim().toLowerCase() === name)
    .map((m) => (m.getAttribute('content') ?? '').trim());
export const ok = (evidence: string) => ({ passed: true, evidence });
export const bad = (evidence: string) => ({ passed: false, evidence });
