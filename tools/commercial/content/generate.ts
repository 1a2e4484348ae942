// content.generate: a finished piece of any kind and tone, within ±15% of the word count; metered by tokens,
// so its usage is what the order is charged on. A leading heading is its title.
import { runAttempts, type Produced, type ProduceOptions } from './attempts.js';
import { parseLongForm } from './longform.js';
import type { LlmSettings } from './model.js';
import { SYSTEM_WRITER } from './prompts.js';
import type { GenerateInput } from './schemas.js';
import { wordRange } from './words.js';

export interface GeneratedContent {
  title?: string;
  content: string;
  word_count: number;
  type: string;
  tone: string;
}

export async function generateContent(input: GenerateInput, llm: LlmSettings | undefined, attempts: number, opts?: ProduceOptions): Promise<Produced<GeneratedContent>> {
  const { min, max } = wordRange(input.word_count);
  const produced = await runAttempts(
    llm,
    {
      system: SYSTEM_WRITER,
      task:
        `Write a finished ${input.type} in a ${input.tone} tone on the topic below, in Markdown. ` +
        `Its text is about ${input.word_count} words (between ${min} and ${max}; a title does not count).\n\nTopic:\n${input.topic}`,
      format: `# <title, if this kind of piece has one>\n\n<the text in Markdown>`,
      parse: (text) => parseLongForm(text, { head: 'title', headRequired: false, target: input.word_count }),
    },
    attempts,
    opts,
  );
  const { head, markdown, word_count } = produced.deliverable;
  return { ...produced, deliverable: { ...(head ? { title: head } : {}), content: markdown, word_count, type: input.type, tone: input.tone } };
}
