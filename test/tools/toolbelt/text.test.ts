import { describe, expect, it } from 'vitest';
import { toolbeltTools } from '../../../tools/toolbelt/index.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const reg = pureRegistry(toolbeltTools);
const slug = async (input: Record<string, unknown>) => (await callTool(reg, 'slugify', input)).slug as string;

describe('slugify', () => {
  it('strips diacritics, folds ligatures and collapses punctuation', async () => {
    expect(await slug({ text: 'Crème Brûlée — Straße & Co.!' })).toBe('creme-brulee-strasse-co');
    expect(await slug({ text: '  Hello,   World!! ' })).toBe('hello-world');
    expect(await slug({ text: 'Ærøskøbing Łódź ﬁnance №5' })).toBe('aeroskobing-lodz-finance-no5');
    expect(await slug({ text: "Don't Stop Believin’" })).toBe('dont-stop-believin');
  });

  it('keeps other scripts unless ascii_only', async () => {
    expect(await slug({ text: 'Привет, мир! 東京 हिन्दी' })).toBe('привет-мир-東京-हिन्दी');
    expect(await slug({ text: 'Йога' })).toBe('йога');
    expect(await slug({ text: 'Привет café', ascii_only: true })).toBe('cafe');
  });

  it('honours separator and lowercase options', async () => {
    expect(await slug({ text: 'Hello World Again', separator: '_' })).toBe('hello_world_again');
    expect(await slug({ text: 'Hello World', separator: '' })).toBe('helloworld');
    expect(await slug({ text: 'Hello World', lowercase: 'false' })).toBe('Hello-World');
  });

  it('cuts at a word boundary within max_length', async () => {
    expect(await callTool(reg, 'slugify', { text: 'the quick brown fox jumps', max_length: 12 })).toEqual({ slug: 'the-quick', length: 9 });
    expect(await slug({ text: 'the quick brown', max_length: 9 })).toBe('the-quick');
    expect(await slug({ text: 'supercalifragilistic', max_length: 5 })).toBe('super');
    expect(await slug({ text: '!!!' })).toBe('');
  });

  it('answers 422 for unknown separators, bad lengths and oversized text', async () => {
    for (const input of [
      { text: 'a b', separator: '/' },
      { text: 'a b', max_length: 0 },
      { text: 'x'.repeat(64 * 1024 + 1) },
      {},
    ]) {
      const err = await callToolError(reg, 'slugify', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
    }
  });
});

describe('text_stats', () => {
  it('counts characters, graphemes, bytes, words, sentences, lines and paragraphs', async () => {
    const text = 'Hello world. It’s 3.14, isn’t it?\r\n\r\nSecond para: 東京です 👍🏽 e\u0301.';
    const out = await callTool(reg, 'text_stats', { text });
    expect(out).toEqual({
      characters: [...text].length,
      graphemes: 57, // 61 code points − 2 CRLF pairs − skin tone − combining accent
      utf16_units: text.length,
      bytes: Buffer.byteLength(text),
      words: 11,
      sentences: 3,
      lines: 3,
      paragraphs: 2,
      whitespace: 13,
      estimated_tokens: Math.ceil([...text].length / 4),
      reading_minutes: 0.1,
    });
  });

  it('counts ASCII words like Unicode word segmentation does', async () => {
    const text = "It's 3.14, e.g. U.S.A. 1,000;5 a:b __init__ _ x.y.z http://x.com/a_b?c=1 don't-stop\r\n";
    const icu = [...new Intl.Segmenter('en', { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).length;
    const out = await callTool(reg, 'text_stats', { text });
    expect(out.words).toBe(icu);
    expect(out.graphemes).toBe(text.length - 1);
  });

  it('counts empty text as zero lines', async () => {
    const out = await callTool(reg, 'text_stats', { text: '' });
    expect(out).toMatchObject({ characters: 0, graphemes: 0, words: 0, sentences: 0, lines: 0, paragraphs: 0 });
  });

  it('measures long text quickly and exactly (pieces and ASCII fast path agree with Intl.Segmenter)', async () => {
    const unit = 'Crème brûlée, naïve café. 👨‍👩‍👧 🇩🇪 東京は大きい都市です。It’s 3.14! a:b foo_bar _ __\r\n';
    const text = unit.repeat(1500); // ~110 KB, longer than any piece
    const per = await callTool(reg, 'text_stats', { text: unit });
    const started = performance.now();
    const all = await callTool(reg, 'text_stats', { text });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(all.graphemes).toBe(per.graphemes * 1500);
    expect(all.words).toBe(per.words * 1500);
    expect(all.characters).toBe(per.characters * 1500);
  });

  it('caps text at 256 KB', async () => {
    const err = await callToolError(reg, 'text_stats', { text: 'x'.repeat(256 * 1024 + 1) });
    expect(err.code).toBe('validation_error');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/256 KB/);
  });
});
