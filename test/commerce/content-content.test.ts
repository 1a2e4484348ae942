// Content orders and content generation: word counts within ±15% (its exact boundaries), titles and subjects
// read from the ways models write them, social packs of 10 posts within the network's limit.
import { afterEach, describe, expect, it } from 'vitest';
import { produceContent } from '../../tools/commercial/content/content.js';
import { ContentShapeError } from '../../tools/commercial/content/errors.js';
import { generateContent } from '../../tools/commercial/content/generate.js';
import { parseLongForm } from '../../tools/commercial/content/longform.js';
import { ContentInput, GenerateInput } from '../../tools/commercial/content/schemas.js';
import { parseSocialPosts } from '../../tools/commercial/content/social.js';
import { countWords, wordRange } from '../../tools/commercial/content/words.js';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm.js';
import { words } from './content-fixtures.js';

let server: ScriptedLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('word counting', () => {
  it('counts the words a reader reads, not the Markdown', () => {
    expect(countWords('# A Title\n\n**Bold** text with a [link](https://example.com/a-b-c) and ![alt text](img.png).')).toBe(10);
    expect(countWords("Don't split well-known words; 3.5 is one; — dashes are none.")).toBe(10);
    expect(countWords('| a | b |\n|---|---|\n| c | d |')).toBe(4);
    expect(countWords('日本語')).toBe(3);
    expect(countWords('')).toBe(0);
  });

  it('±15%, inclusive, rounded inwards', () => {
    expect(wordRange(100)).toEqual({ min: 85, max: 115 });
    expect(wordRange(1000)).toEqual({ min: 850, max: 1150 });
    expect(wordRange(50)).toEqual({ min: 43, max: 57 });
  });

  it('the boundaries of a blog body: 84 and 116 miss, 85 and 115 fit', () => {
    const blog = (n: number) => parseLongForm(`# Title here\n\n${words(n)}`, { head: 'title', headRequired: true, target: 100 });
    expect(blog(85)).toMatchObject({ ok: true, value: { head: 'Title here', word_count: 85 } });
    expect(blog(115)).toMatchObject({ ok: true, value: { word_count: 115 } });
    expect(blog(84)).toEqual({ ok: false, problems: ['the body has 84 words; it must have between 85 and 115 (target 100): write about 16 more words.'] });
    expect(blog(116)).toEqual({ ok: false, problems: ['the body has 116 words; it must have between 85 and 115 (target 100): cut about 16 words.'] });
  });
});

describe('long pieces', () => {
  it('a title as "Title:", as a bold heading, in a whole-reply fence, after chatter', () => {
    const body = `## Why it matters\n\n${words(97)}`;
    for (const reply of [
      `Title: **Ten Ways to Brew**\n\n${body}`,
      `# **Ten Ways to Brew**\n\n${body}`,
      '```markdown\n# Ten Ways to Brew\n\n' + body + '\n```',
      `Sure! Here is your blog post:\n\n# Ten Ways to Brew\n\n${body}\n\nLet me know if you want changes.`,
    ]) {
      const r = parseLongForm(reply, { head: 'title', headRequired: true, target: 100 });
      expect(r, reply).toMatchObject({ ok: true, value: { head: 'Ten Ways to Brew', markdown: body, word_count: 100 } });
    }
  });

  it('a newsletter subject, with a preview line; without one it is a miss', () => {
    const r = parseLongForm(`**Subject:** March news\nPreview: what changed\n\n${words(100)}`, { head: 'subject', headRequired: true, target: 100 });
    expect(r).toMatchObject({ ok: true, value: { head: 'March news', preview: 'what changed', word_count: 100 } });
    const none = parseLongForm(words(100), { head: 'subject', headRequired: true, target: 100 });
    expect(none).toEqual({ ok: false, problems: ['no subject line: start with "Subject: <subject line>"'] });
  });

  it('produceContent: a blog too short is sent back with the count, then delivered', async () => {
    server = await startScriptedLlm([
      { content: `# Cold Brew at Home\n\n${words(300)}`, usage: { prompt_tokens: 50, completion_tokens: 400, total_tokens: 450 } },
      { content: `# Cold Brew at Home\n\n## Start\n\n${words(499)}`, usage: { prompt_tokens: 500, completion_tokens: 650, total_tokens: 1150 } },
    ]);
    const out = await produceContent({ type: 'blog', topic: 'Cold brew coffee', word_count: 500 }, server.llm(), 3);
    expect(out.deliverable).toMatchObject({ title: 'Cold Brew at Home', word_count: 500 });
    expect(out.usage.total_tokens).toBe(1600);
    const feedback = server.requests[1].body.messages[3].content;
    expect(feedback).toContain('the body has 300 words; it must have between 425 and 575 (target 500): write about 200 more words.');
    expect(server.requests[0].body.messages[1].content).toContain('between 425 and 575');
    expect(server.requests[0].body.response_format).toBeUndefined(); // long pieces are asked in Markdown only
  });

  it('produceContent: a newsletter that keeps missing fails with ContentShapeError after the attempts', async () => {
    server = await startScriptedLlm([`Subject: Hi\n\n${words(10)}`, `Subject: Hi\n\n${words(20)}`]);
    const err = await produceContent({ type: 'newsletter', topic: 'News', word_count: 200 }, server.llm(), 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentShapeError);
    expect((err as ContentShapeError).problems).toEqual(['the body has 20 words; it must have between 170 and 230 (target 200): write about 180 more words.']);
    expect(server.requests).toHaveLength(2);
  });

  it('a cut-off reply says so in the feedback', async () => {
    server = await startScriptedLlm([{ content: `# T\n\n${words(60)}`, finish_reason: 'length' }, `# T\n\n${words(100)}`]);
    await produceContent({ type: 'blog', topic: 't', word_count: 100 }, server.llm(), 2);
    expect(server.requests[1].body.messages[3].content).toMatch(/cut off/);
  });

  it('generateContent: title optional, type and tone echoed, the count checked', async () => {
    server = await startScriptedLlm([words(150), `# Launch Day\n\n${words(160)}`]);
    const a = await generateContent({ topic: 'Our launch', type: 'press release', tone: 'formal', word_count: 150 }, server.llm(), 1);
    expect(a.deliverable).toEqual({ content: words(150), word_count: 150, type: 'press release', tone: 'formal' });
    const b = await generateContent({ topic: 'Our launch', type: 'article', tone: 'playful', word_count: 150 }, server.llm(), 1);
    expect(b.deliverable).toMatchObject({ title: 'Launch Day', word_count: 160 });
    expect(server.requests[0].body.messages[1].content).toMatch(/press release in a formal tone/);
  });
});

describe('social packs', () => {
  const post = (i: number) => `${words(12, i)} #coffee`;

  it('"### Post n", "**Post n:** text", a numbered list, bare paragraphs, JSON', () => {
    const formats = [
      Array.from({ length: 10 }, (_, i) => `### Post ${i + 1}\n${post(i)}`).join('\n\n'),
      Array.from({ length: 10 }, (_, i) => `**Post ${i + 1}:** ${post(i)}`).join('\n\n'),
      Array.from({ length: 10 }, (_, i) => `${i + 1}. ${post(i)}`).join('\n'),
      Array.from({ length: 10 }, (_, i) => post(i)).join('\n\n'),
      '```json\n' + JSON.stringify({ posts: Array.from({ length: 10 }, (_, i) => ({ text: post(i) })) }) + '\n```',
    ];
    for (const f of formats) {
      const r = parseSocialPosts(f, 'X');
      expect(r.ok, f).toBe(true);
      expect(r.ok && r.value[3], f).toEqual({ text: post(3) });
    }
  });

  it('a heading names the post; hashtags given apart are appended; an image idea is left out', () => {
    const reply = Array.from({ length: 10 }, (_, i) => `### Post ${i + 1} — Teaser\n\n${words(12, i)}\n\n**Hashtags:** #brew #home\n\n*Image idea:* a cup on a table`).join('\n\n');
    const r = parseSocialPosts(reply, 'LinkedIn');
    expect(r.ok && r.value[0]).toEqual({ text: `${words(12, 0)}\n\n#brew #home` });
  });

  it('multi-paragraph LinkedIn posts stay whole', () => {
    const reply = Array.from({ length: 10 }, (_, i) => `## Post ${i + 1}\n\n${words(20, i)}\n\n${words(15, i + 1)}\n\n#hiring`).join('\n\n');
    const r = parseSocialPosts(reply, 'linkedin');
    expect(r.ok && r.value).toHaveLength(10);
    expect(r.ok && r.value[9].text.split('\n\n')).toHaveLength(3);
  });

  it('the network limit: 280 on X', () => {
    const at = (n: number) => Array.from({ length: 10 }, (_, i) => `### Post ${i + 1}\n${'a '.repeat(n / 2).trim()}${n % 2 ? '' : 'b'}`).join('\n\n');
    expect(parseSocialPosts(at(280), 'X').ok).toBe(true);
    const r = parseSocialPosts(at(282), 'Twitter');
    expect(!r.ok && r.problems).toContain('post 1: the post has 282 characters; X (Twitter) allows at most 280');
  });

  it('produceContent social_pack: 10 posts and the platform', async () => {
    server = await startScriptedLlm([Array.from({ length: 10 }, (_, i) => `### Post ${i + 1}\n${post(i)}`).join('\n\n')]);
    const out = await produceContent({ type: 'social_pack', topic: 'Coffee', word_count: 200, platform: 'X' }, server.llm(), 1);
    expect(out.deliverable).toMatchObject({ platform: 'x' });
    expect((out.deliverable as { posts: unknown[] }).posts).toHaveLength(10);
    expect(server.requests[0].body.messages[1].content).toContain('at most 280 characters (about 20 words)');
  });
});

describe('inputs', () => {
  it('word_count 50–5000, integer; required but for a social pack; topic ≤ 500; tone ≤ 50', () => {
    expect(ContentInput.safeParse({ type: 'blog', topic: 't', word_count: 50 }).success).toBe(true);
    expect(ContentInput.safeParse({ type: 'blog', topic: 't', word_count: 49 }).success).toBe(false);
    expect(ContentInput.safeParse({ type: 'blog', topic: 't', word_count: 5001 }).success).toBe(false);
    expect(ContentInput.safeParse({ type: 'blog', topic: 't', word_count: 100.5 }).success).toBe(false);
    expect(ContentInput.safeParse({ type: 'newsletter', topic: 't' }).success).toBe(false);
    expect(ContentInput.safeParse({ type: 'social_pack', topic: 't' }).success).toBe(true);
    expect(ContentInput.safeParse({ type: 'blog', topic: 't'.repeat(501), word_count: 100 }).success).toBe(false);
    expect(GenerateInput.safeParse({ topic: 't', type: 'article', tone: 'x'.repeat(51), word_count: 100 }).success).toBe(false);
    expect(GenerateInput.safeParse({ topic: 't', type: 'article', tone: 'warm', word_count: 100 }).success).toBe(true);
  });
});

describe('markers with a note', () => {
  it('"Post 3 (X):" and "Email 2 (Day 3):" leave the note out', () => {
    const reply = Array.from({ length: 10 }, (_, i) => `Post ${i + 1} (X):\n${words(8, i)}`).join('\n\n');
    const r = parseSocialPosts(reply, 'X');
    expect(r.ok && r.value[2]).toEqual({ text: words(8, 2) });
  });
});
