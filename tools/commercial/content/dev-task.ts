// The dev task's deliverable: Markdown with a summary, the code in fenced blocks in the ordered language, an
// explanation and how to run and test it. The reply must hold at least one complete, non-empty block in that
// language (or untagged). A revision sends the previous deliverable back with the client's notes and asks
// for the whole deliverable again, revised.
import { runAttempts, type Parsed, type Produced, type ProduceOptions } from './attempts.js';
import { codeBlocks, isInLanguage } from './code-blocks.js';
import { classifyDevTask, type DevTier } from './dev-tiers.js';
import type { ChatMessage, LlmSettings } from './model.js';
import { SYSTEM_DEVELOPER } from './prompts.js';
import { cleanReply } from './reply.js';
import type { DevTaskInput } from './schemas.js';

export interface DevTaskDeliverable {
  markdown: string;
  code_blocks: { language: string; code: string }[];
  summary: string;
}

export interface DevTaskOptions extends ProduceOptions {
  /** The client's notes on the previous deliverable: this call is a revision. */
  revisionNotes?: string;
  /** The deliverable being revised (or its Markdown). */
  previous?: DevTaskDeliverable | string;
  /** Calls before failing (default 3). */
  attempts?: number;
  /** The tier, when the order already has one (else classified here). */
  tier?: DevTier;
}

const SUMMARY_MAX = 600;

/** The text under a "Summary"/"Overview" heading, else the first paragraph of prose. */
function summaryOf(markdown: string): string {
  const outside = markdown.replace(/^\s{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\s{0,3}\1[^\n]*$/gm, '');
  const under = outside.match(/^#{1,6}\s*(?:\*\*)?(?:summary|overview|tl;?dr)\b[^\n]*\n+([\s\S]*?)(?=\n#{1,6}\s|$)/im);
  const paragraphs = (under ? under[1] : outside).split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p && !/^#{1,6}\s/.test(p));
  const first = paragraphs[0] ?? '';
  return first.length > SUMMARY_MAX ? `${first.slice(0, SUMMARY_MAX - 1).trimEnd()}…` : first;
}

export function parseDevTask(text: string, language: string): Parsed<DevTaskDeliverable> {
  const markdown = cleanReply(text);
  if (!markdown) return { ok: false, problems: ['the reply was empty'] };
  const { blocks, unclosed } = codeBlocks(markdown);
  const problems: string[] = [];
  if (unclosed) problems.push('a code block is never closed (the reply may have been cut off): close every ``` fence');
  const inLanguage = blocks.filter((b) => isInLanguage(b, language) && b.code.trim());
  if (!inLanguage.length) {
    problems.push(
      blocks.length
        ? `no code block in ${language}: the code blocks found are tagged ${[...new Set(blocks.map((b) => b.tag || 'untagged'))].join(', ')}`
        : `no fenced code block: put the code in \`\`\`${language.toLowerCase()} … \`\`\` blocks`,
    );
  }
  if (problems.length) return { ok: false, problems };
  return {
    ok: true,
    value: { markdown, code_blocks: blocks.filter((b) => b.code.trim()).map((b) => ({ language: b.tag || language, code: b.code })), summary: summaryOf(markdown) },
  };
}

const FORMAT = (lang: string) =>
  `## Summary\n<two to four sentences: what was built>\n\n## Code\n\`\`\`${lang}\n<the code; when there are several files, one block each, preceded by its path in bold>\n\`\`\`\n\n## Explanation\n<how it works and the choices made>\n\n## How to run\n<commands and setup>\n\n## How to test\n<the tests, or how to check it works>`;

export async function produceDevTask(input: DevTaskInput, llm: LlmSettings | undefined, opts: DevTaskOptions = {}): Promise<Produced<DevTaskDeliverable>> {
  const tier = opts.tier ?? classifyDevTask(input).tier;
  const lang = input.language.toLowerCase().split(/\s+/)[0];
  const previous = typeof opts.previous === 'string' ? opts.previous : opts.previous?.markdown;
  const history: ChatMessage[] =
    opts.revisionNotes && previous
      ? [
          { role: 'assistant', content: previous },
          { role: 'user', content: `The client reviewed this deliverable and asks for these revisions:\n\n${opts.revisionNotes}\n\nReply with the complete revised deliverable (not only the changes), in the same format.` },
        ]
      : [];
  return runAttempts(
    llm,
    {
      system: SYSTEM_DEVELOPER,
      task: `Complete this ${tier} development task in ${input.language}.\n\nTask:\n${input.description}`,
      format: FORMAT(lang),
      history,
      parse: (text) => parseDevTask(text, input.language),
    },
    opts.attempts ?? 3,
    opts,
  );
}
