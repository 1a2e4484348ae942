// Word counting for the ±15% rule: the words a reader reads, so Markdown syntax (heading marks, emphasis, link
// targets, image addresses, table pipes, HTML tags) does not count, and a hyphenated or apostrophised word is
// one. Chinese and Japanese, written without spaces, count one word per character, as word processors do.

export const WORD_TOLERANCE = 0.15;

const CJK = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;
const WORD = /[\p{L}\p{N}]+(?:['’\-.][\p{L}\p{N}]+)*/gu;

export function countWords(markdown: string): number {
  const text = markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: their alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<[^>]+>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(CJK, ' $1 ');
  return text.match(WORD)?.length ?? 0;
}

/** The accepted range for a target: 85% rounded up to 115% rounded down. */
export function wordRange(target: number): { min: number; max: number } {
  return { min: Math.ceil(target * (1 - WORD_TOLERANCE) - 1e-9), max: Math.floor(target * (1 + WORD_TOLERANCE) + 1e-9) };
}

/** A problem line when `markdown` misses the range, else undefined. */
export function wordCountProblem(what: string, markdown: string, target: number): string | undefined {
  const n = countWords(markdown);
  const { min, max } = wordRange(target);
  if (n < min) return `${what} has ${n} words; it must have between ${min} and ${max} (target ${target}): write about ${target - n} more words.`;
  if (n > max) return `${what} has ${n} words; it must have between ${min} and ${max} (target ${target}): cut about ${n - target} words.`;
  return undefined;
}
