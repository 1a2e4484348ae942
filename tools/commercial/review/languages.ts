// The languages a review knows, by name or by a file's extension.
export const LANGUAGES = ['javascript', 'typescript', 'python', 'go', 'java', 'rust', 'ruby', 'php', 'csharp', 'shell'] as const;
export type Language = (typeof LANGUAGES)[number];

const ALIASES: Record<string, Language> = {
  js: 'javascript', javascript: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  ts: 'typescript', typescript: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  py: 'python', python: 'python', python3: 'python',
  go: 'go', golang: 'go',
  java: 'java',
  rs: 'rust', rust: 'rust',
  rb: 'ruby', ruby: 'ruby',
  php: 'php',
  cs: 'csharp', csharp: 'csharp', 'c#': 'csharp',
  sh: 'shell', bash: 'shell', shell: 'shell', zsh: 'shell',
};

/** The language named, else the one the file's extension names; the name as given when it is none we know. */
export function languageOf(language: string | undefined, filename: string | undefined): { known: Language } | { unknown: string } {
  const named = language?.trim().toLowerCase();
  if (named) return ALIASES[named] ? { known: ALIASES[named] } : { unknown: named };
  const ext = filename?.toLowerCase().match(/\.([a-z0-9#]+)$/)?.[1];
  if (ext && ALIASES[ext]) return { known: ALIASES[ext] };
  return { unknown: ext ?? 'unspecified' };
}

/** TSX/JSX: from the file name (a .tsx file parses JSX). */
export const isJsx = (filename: string | undefined): boolean => /\.(tsx|jsx)$/i.test(filename ?? '');
