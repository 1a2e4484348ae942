// The languages a review knows, by name or by a file's extension, and the refusal of any other before anything is
// held (422 unsupported_language) when no model is configured to take it.
import { GatewayError } from '../../../src/errors.js';

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

/** The supported languages as a sentence's list: "javascript, typescript, … or shell". */
export const LANGUAGE_LIST = `${LANGUAGES.slice(0, -1).join(', ')} or ${LANGUAGES.at(-1)}`;

/**
 * 422 for a review the engines cannot do (a language they do not parse, or none named): refused before any hold,
 * naming the supported languages; the field is the language, or the filename whose extension named it.
 */
export function unsupportedLanguage(named: string, field: 'language' | 'filename'): GatewayError {
  const msg =
    named === 'unspecified'
      ? `Name the language (language, or a filename with its extension): the review supports ${LANGUAGE_LIST}.`
      : `The review does not support “${named}”: it supports ${LANGUAGE_LIST}. Nothing was held or charged.`;
  return new GatewayError('validation_error', msg, {
    extra: { reason: 'unsupported_language', language: named, supported: [...LANGUAGES] },
    detail: [{ loc: [field], msg, type: 'unsupported_language' }],
  });
}
