// The operator's model, when one is configured (config.llm with a model), as one more reviewer after the engines.
// It sees the code with line numbers and the engines' findings; its findings are kept only when they point to a
// real line of the input (a number within the code, a line that is not blank), and one on a line and category an
// engine already reported is folded into it. A model call that fails throws (its GatewayError): the order's
// attempts try it again, and service.ts decides what the last failure means (a note, or a failed order).
import { callModel, type LlmSettings } from '../content/model.js';
import type { Usage } from '../content/usage.js';
import { readJson } from '../extract/model.js';
import { FOCUSES, SEVERITIES, type Finding, type Focus, type Severity } from './findings.js';
import { MODEL_COMPLETION_TOKENS, tokensOf } from './limits.js';

const SYSTEM =
  'You are a senior code reviewer. Report real defects only (security, performance, style, correctness), each at the line number shown. ' +
  'Do not repeat the findings already listed. Reply with JSON only: {"findings":[{"line":N,"severity":"critical|high|medium|low|info",' +
  '"category":"security|performance|style|correctness","rule":"short-kebab-name","message":"…","fix":"…"}]}. Reply {"findings":[]} when there is nothing more.';

/** Most tokens the model's call may use: the code numbered, the instructions and findings, with headroom, and the reply. */
export const modelTokenCap = (chars: number, lines: number): number => Math.ceil(tokensOf(chars + 8 * lines + 6000) * 1.5) + MODEL_COMPLETION_TOKENS;

export interface ModelReview {
  findings: Finding[];
  usage: Usage;
  /** Model findings left out: not on a real line, or already reported by an engine. */
  dropped: number;
  folded: number;
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'finding';

export async function reviewWithModel(llm: LlmSettings, code: string, language: string, engine: Finding[], focus: readonly Focus[] | undefined, signal?: AbortSignal): Promise<ModelReview> {
  const lines = code.split('\n');
  const numbered = lines.map((l, i) => `${i + 1}| ${l}`).join('\n');
  const known = engine.map((f) => `- line ${f.line}: ${f.rule_id}: ${f.message}`).join('\n') || '(none)';
  const ask = `Language: ${language}.${focus?.length ? ` Focus on: ${focus.join(', ')}.` : ''}\nAlready found:\n${known}\n\nCode:\n${numbered}`;
  const reply = await callModel(llm, [{ role: 'system', content: SYSTEM }, { role: 'user', content: ask }], signal ? { signal } : {});
  const parsed = readJson(reply.text) as { findings?: unknown } | undefined;
  const items = Array.isArray(parsed?.findings) ? (parsed.findings as Record<string, unknown>[]) : [];
  const out: ModelReview = { findings: [], usage: reply.usage, dropped: 0, folded: 0 };
  for (const it of items) {
    const line = Number(it?.line);
    const message = typeof it?.message === 'string' ? it.message.trim() : '';
    if (!Number.isInteger(line) || line < 1 || line > lines.length || !lines[line - 1]!.trim() || !message) {
      out.dropped++;
      continue;
    }
    const category: Focus = FOCUSES.includes(it.category as Focus) ? (it.category as Focus) : 'correctness';
    if (focus?.length && !focus.includes(category)) continue;
    if (engine.some((f) => f.line === line && f.category === category)) {
      out.folded++;
      continue;
    }
    const severity: Severity = SEVERITIES.includes(it.severity as Severity) ? (it.severity as Severity) : 'medium';
    const column = lines[line - 1]!.search(/\S/) + 1;
    out.findings.push({
      rule_id: `model/${slug(typeof it.rule === 'string' ? it.rule : message)}`,
      line,
      column,
      severity,
      category,
      message: message.slice(0, 1000),
      fix: typeof it.fix === 'string' && it.fix.trim() ? it.fix.trim().slice(0, 2000) : 'See the message.',
      engine: 'model',
    });
  }
  return out;
}
