// The vulnerability families the JavaScript/TypeScript quality corpora are labelled with, each with the CWEs a
// finding may carry to count for it. The corpora name their own rules (njsscan's `express_xss`, the plugins'
// `no-inner-html`); each derivation script maps those names to one of these families, and the bench counts a
// vulnerable case as found when a finding whose CWE is in its family's list lands on the case's line.
export const FAMILIES = {
  xss: { title: 'cross-site scripting', cwes: ['CWE-79', 'CWE-80', 'CWE-116'] },
  'open-redirect': { title: 'open redirect', cwes: ['CWE-601'] },
  'header-injection': { title: 'HTTP header injection', cwes: ['CWE-113', 'CWE-644', 'CWE-20'] },
  'sql-injection': { title: 'SQL injection', cwes: ['CWE-89'] },
  'nosql-injection': { title: 'NoSQL injection', cwes: ['CWE-943'] },
  'command-injection': { title: 'OS command injection', cwes: ['CWE-78'] },
  'code-injection': { title: 'code injection (eval, vm, templates, require)', cwes: ['CWE-94', 'CWE-95', 'CWE-706', 'CWE-829', 'CWE-1336'] },
  'path-traversal': { title: 'path traversal', cwes: ['CWE-22', 'CWE-23', 'CWE-73'] },
  ssrf: { title: 'server-side request forgery', cwes: ['CWE-918'] },
  xxe: { title: 'XML external entities and entity expansion', cwes: ['CWE-611', 'CWE-776'] },
  'xpath-injection': { title: 'XPath injection', cwes: ['CWE-643'] },
  deserialization: { title: 'unsafe deserialisation', cwes: ['CWE-502'] },
  'weak-crypto': { title: 'weak cryptography', cwes: ['CWE-327', 'CWE-328', 'CWE-326', 'CWE-329', 'CWE-916'] },
  'insecure-random': { title: 'insecure randomness', cwes: ['CWE-338', 'CWE-330'] },
  'timing-attack': { title: 'timing attack on a secret comparison', cwes: ['CWE-208'] },
  tls: { title: 'TLS and transport security', cwes: ['CWE-295', 'CWE-319', 'CWE-599', 'CWE-757'] },
  'hardcoded-secret': { title: 'hard-coded credentials', cwes: ['CWE-798', 'CWE-321', 'CWE-259'] },
  'sensitive-data': { title: 'sensitive data exposed (credentials in a token)', cwes: ['CWE-522', 'CWE-200'] },
  jwt: { title: 'JWT verification and revocation', cwes: ['CWE-347', 'CWE-613'] },
  origin: { title: 'origin checks (CORS, postMessage, document.domain)', cwes: ['CWE-346', 'CWE-345', 'CWE-942'] },
  cookie: { title: 'cookie security', cwes: ['CWE-614', 'CWE-1004', 'CWE-1275', 'CWE-539', 'CWE-565'] },
  'security-headers': { title: 'security headers disabled', cwes: ['CWE-693', 'CWE-1021'] },
  electron: { title: 'Electron window hardening', cwes: ['CWE-272', 'CWE-346', 'CWE-693', 'CWE-319', 'CWE-94'] },
  redos: { title: 'regular expression denial of service', cwes: ['CWE-1333', 'CWE-185', 'CWE-400', 'CWE-625'] },
  dos: { title: 'denial of service (unbounded input)', cwes: ['CWE-400', 'CWE-770', 'CWE-834'] },
  'error-disclosure': { title: 'error details disclosed', cwes: ['CWE-209'] },
  'logic-bypass': { title: 'security decision on user input', cwes: ['CWE-807'] },
  buffer: { title: 'unsafe Buffer use', cwes: ['CWE-119', 'CWE-908', 'CWE-665'] },
  csrf: { title: 'cross-site request forgery', cwes: ['CWE-352'] },
  'prototype-pollution': { title: 'object injection and prototype pollution', cwes: ['CWE-915', 'CWE-1321'] },
  'trojan-source': { title: 'bidirectional control characters (Trojan Source)', cwes: ['CWE-1007', 'CWE-451'] },
} as const satisfies Record<string, { title: string; cwes: readonly string[] }>;

export type Family = keyof typeof FAMILIES;

/** One labelled case: a file of the corpus (or a snippet), the lines it covers, its family, vulnerable or safe. */
export interface QualityCase {
  id: string;
  /** Path under the corpus directory, or absent when the case carries its code. */
  file?: string;
  code?: string;
  language: 'javascript' | 'typescript';
  /** A snippet written in JSX (parsed with JSX on; TypeScript with JSX is TSX). */
  jsx?: boolean;
  /** The labelled line, 1-based. */
  line: number;
  /** The lines a finding may start on to count for this case, inclusive (see each corpus's SOURCE for why). */
  lines: [number, number];
  family: Family;
  vulnerable: boolean;
  /** The corpus's own name for what it labels (rule id). */
  label: string;
}

export interface QualityCorpus {
  corpus: string;
  repo: string;
  commit: string;
  license: string;
  mapping: string;
  excluded: { count: number; why: string }[];
  cases: QualityCase[];
}
