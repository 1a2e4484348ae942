// regex_test: runs a JavaScript regular expression in a node:vm context with a time limit, because V8's
// backtracking engine can take exponential time ((a+)+$ on "aaaa…!") and would otherwise freeze the server.
import vm from 'node:vm';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { cappedText, int, invalid, PURE, TOOLBELT_BASE } from './common.js';

export const REGEX_TIMEOUT_MS = 100;
const MAX_PATTERN = 1000;
const MAX_TEXT_BYTES = 100 * 1024;
/** Total characters of matched text and captures returned, so lookahead captures cannot explode the answer. */
const OUTPUT_BUDGET = 1_000_000;

/**
 * Runs inside the sandbox. Inputs arrive as primitive globals and the answer leaves as a JSON string, so no
 * object crosses realms. The "d" flag is added for capture positions; it does not change what matches.
 */
const SCRIPT = new vm.Script(`(() => {
  'use strict';
  let re;
  try { re = new RegExp(PATTERN, FLAGS); }
  catch (e) { return JSON.stringify({ error: String(e && e.message) }); }
  if (!re.hasIndices) re = new RegExp(PATTERN, FLAGS + 'd');
  const matches = [];
  let budget = BUDGET, truncated = false;
  const take = (m) => {
    const groups = m.slice(1).map((g) => (g === undefined ? null : g));
    budget -= m[0].length + groups.reduce((n, g) => n + (g === null ? 0 : g.length), 0);
    if (budget < 0) { truncated = true; return false; }
    matches.push({
      match: m[0], index: m.index, end: m.index + m[0].length, groups,
      group_indices: m.indices.slice(1).map((p) => (p === undefined ? null : [p[0], p[1]])),
      named_groups: m.groups ? Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v === undefined ? null : v])) : null,
    });
    return true;
  };
  try {
    if (re.global) {
      for (const m of TEXT.matchAll(re)) {
        if (matches.length >= MAX) { truncated = true; break; }
        if (!take(m)) break;
      }
    } else {
      const m = re.exec(TEXT);
      if (m) take(m);
    }
  } catch (e) {
    return JSON.stringify({ error: 'The regular expression failed while matching: ' + String(e && e.message) });
  }
  return JSON.stringify({ flags: re.flags, matches, truncated });
})()`);

let warm = false;
/**
 * The script's first run compiles it, which under load took longer than the whole time limit and stopped a
 * trivial pattern: run it once, untimed and on empty input, before the first timed run.
 */
function warmUp(): void {
  if (warm) return;
  SCRIPT.runInContext(vm.createContext({ PATTERN: '', FLAGS: 'g', TEXT: '', MAX: 1, BUDGET: 1 }));
  warm = true;
}

interface SandboxAnswer {
  error?: string;
  flags: string;
  matches: unknown[];
  truncated: boolean;
}

export const regexTest = defineTool({
  ...TOOLBELT_BASE,
  name: 'regex_test',
  title: 'Test a regular expression',
  description:
    'Runs a JavaScript (ECMAScript, V8) regular expression against text. Without the g flag only the first ' +
    'match is returned (RegExp.exec); with g every match up to max_matches (String.matchAll). Returns ' +
    '{matched, match_count, matches: [{match, index, end, groups (numbered captures, null if unmatched), ' +
    'group_indices ([start, end] or null), named_groups}], truncated}. Indices are UTF-16 offsets. ' +
    `Execution is capped at ${REGEX_TIMEOUT_MS} ms: a pattern that backtracks catastrophically (e.g. (a+)+$) ` +
    'answers 422 with timed_out: true instead of hanging. An invalid pattern or flag answers 422 with the ' +
    `engine's message. Limits: pattern ${MAX_PATTERN} characters, text 100 KB.`,
  input: z.object({
    pattern: z.string().max(MAX_PATTERN).describe(`The pattern source without slashes, e.g. "(\\\\d+)-(?<part>\\\\w+)" (at most ${MAX_PATTERN} chars).`),
    flags: z
      .string()
      .max(8)
      .regex(/^[dgimsuvy]*$/, 'Flags may only be d, g, i, m, s, u, v, y.')
      .default('')
      .describe('RegExp flags, any of d g i m s u v y, e.g. "gi". Default none (first match only).'),
    text: cappedText('The text to search (at most 100 KB).', MAX_TEXT_BYTES),
    max_matches: int(1, 1000, 100, 'With the g flag, stop after this many matches (1–1000). Default 100.'),
  }),
  annotations: PURE,
  handler: (input) => {
    warmUp();
    const sandbox = vm.createContext({
      PATTERN: input.pattern,
      FLAGS: input.flags,
      TEXT: input.text,
      MAX: input.max_matches,
      BUDGET: OUTPUT_BUDGET,
    });
    let raw: string;
    try {
      raw = SCRIPT.runInContext(sandbox, { timeout: REGEX_TIMEOUT_MS }) as string;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw invalid(
          'pattern',
          `The regular expression ran longer than ${REGEX_TIMEOUT_MS} ms and was stopped (catastrophic backtracking? ` +
            'avoid nested quantifiers like (a+)+ and overlapping alternatives like (a|a)*).',
          { timed_out: true, timeout_ms: REGEX_TIMEOUT_MS },
        );
      }
      throw err;
    }
    const answer = JSON.parse(raw) as SandboxAnswer;
    if (answer.error !== undefined) throw invalid(/flag/i.test(answer.error) ? 'flags' : 'pattern', answer.error);
    return {
      pattern: input.pattern,
      flags: input.flags.includes('d') ? answer.flags : answer.flags.replace('d', ''),
      matched: answer.matches.length > 0,
      match_count: answer.matches.length,
      matches: answer.matches,
      truncated: answer.truncated,
    };
  },
});
