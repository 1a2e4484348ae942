// Content orders: blog (title + Markdown body), social_pack (10 posts), newsletter (subject + Markdown body),
// the long ones within ±15% of the ordered word count.
import { runAttempts, type Produced, type ProduceOptions } from './attempts.js';
import { parseLongForm } from './longform.js';
import type { LlmSettings } from './model.js';
import { SYSTEM_WRITER } from './prompts.js';
import type { ContentInput } from './schemas.js';
import { produceSocialPack, type SocialPack } from './social.js';
import { wordRange } from './words.js';

export interface BlogPost {
  title: string;
  markdown: string;
  word_count: number;
}

export interface Newsletter {
  subject: string;
  preview?: string;
  markdown: string;
  word_count: number;
}

export type ContentDeliverable = BlogPost | SocialPack | Newsletter;

const lengthRule = (target: number) => {
  const { min, max } = wordRange(target);
  return `about ${target} words (between ${min} and ${max}; the title does not count)`;
};

export async function produceBlog(input: { topic: string; word_count: number }, llm: LlmSettings | undefined, attempts: number, opts?: ProduceOptions): Promise<Produced<BlogPost>> {
  const produced = await runAttempts(
    llm,
    {
      system: SYSTEM_WRITER,
      task: `Write a blog post on the topic below. The body is ${lengthRule(input.word_count)}, in Markdown with subheadings (##) where they help.\n\nTopic:\n${input.topic}`,
      format: `# <title>\n\n<the body in Markdown>`,
      parse: (text) => parseLongForm(text, { head: 'title', headRequired: true, target: input.word_count }),
    },
    attempts,
    opts,
  );
  const { head, markdown, word_count } = produced.deliverable;
  return { ...produced, deliverable: { title: head, markdown, word_count } };
}

export async function produceNewsletter(input: { topic: string; word_count: number }, llm: LlmSettings | undefined, attempts: number, opts?: ProduceOptions): Promise<Produced<Newsletter>> {
  const produced = await runAttempts(
    llm,
    {
      system: SYSTEM_WRITER,
      task: `Write an email newsletter issue on the topic below: a subject line, then the body, ${lengthRule(input.word_count)}, in Markdown.\n\nTopic:\n${input.topic}`,
      format: `Subject: <subject line>\n\n<the body in Markdown>`,
      parse: (text) => parseLongForm(text, { head: 'subject', headRequired: true, target: input.word_count }),
    },
    attempts,
    opts,
  );
  const { head, preview, markdown, word_count } = produced.deliverable;
  return { ...produced, deliverable: { subject: head, ...(preview ? { preview } : {}), markdown, word_count } };
}

export async function produceContent(input: ContentInput, llm: LlmSettings | undefined, attempts: number, opts?: ProduceOptions): Promise<Produced<ContentDeliverable>> {
  switch (input.type) {
    case 'blog':
      return produceBlog({ topic: input.topic, word_count: requireCount(input) }, llm, attempts, opts);
    case 'newsletter':
      return produceNewsletter({ topic: input.topic, word_count: requireCount(input) }, llm, attempts, opts);
    case 'social_pack':
      return produceSocialPack(input, llm, attempts, opts);
  }
}

// ContentInput's refinement guarantees it; this keeps the type honest for a caller that skipped the schema.
function requireCount(input: ContentInput): number {
  if (input.word_count === undefined) throw new TypeError(`word_count is required for a ${input.type}`);
  return input.word_count;
}
