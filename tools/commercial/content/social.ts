// content.social_pack: 10 posts within the network's post limit (platforms.ts). A post may follow its marker
// on the same line ("**Post 1:** Big news…") or under a heading ("### Post 1 — Teaser" ⏎ text); hashtags
// given apart are appended, and an image idea is left out (the client gets the text to post).
import { runAttempts, type Produced, type ProduceOptions } from './attempts.js';
import type { FieldSpecs } from './fields.js';
import { parseList, type ListKind } from './list.js';
import type { LlmSettings } from './model.js';
import { charCount, postLimits, type PostLimits } from './platforms.js';
import { SYSTEM_WRITER } from './prompts.js';
import { countWords } from './words.js';

export const SOCIAL_POSTS = 10;
const POST_MIN_WORDS = 3;

export interface SocialPost {
  text: string;
}

export interface SocialPack {
  posts: SocialPost[];
  platform?: string;
}

type PostField = 'text' | 'hashtags' | 'visual';

const FIELDS: FieldSpecs<PostField> = {
  text: { aliases: ['text', 'post', 'post text', 'copy', 'caption', 'content', 'body', 'tweet'], multiline: true },
  hashtags: { aliases: ['hashtags', 'tags'] },
  visual: { aliases: ['visual', 'image', 'image idea', 'visual idea', 'media', 'graphic', 'suggested image'], multiline: true },
};

function postKind(limits: PostLimits): ListKind<PostField, SocialPost> {
  return {
    noun: 'post',
    count: SOCIAL_POSTS,
    words: ['post', 'tweet', 'caption', 'update'],
    jsonKeys: ['posts', 'social posts', 'tweets'],
    fields: FIELDS,
    lead: [],
    paragraphs: true,
    build(f, rest, section) {
      // A heading's title names the post; a bold or plain marker's title is the post's first words.
      const own = section.heading && rest ? rest : [section.title, rest].filter(Boolean).join('\n');
      let text = (f.text ?? own).trim();
      if (f.hashtags && !text.includes(f.hashtags)) text = `${text}\n\n${f.hashtags}`.trim();
      if (/^(#{1,6}\s[^\n]*|(\*\*|__)[^\n]*(\*\*|__):?)$/.test(text)) text = ''; // a lone marker, not a post
      if (countWords(text) < POST_MIN_WORDS) return [`no post text`];
      if (charCount(text) > limits.chars) return [`the post has ${charCount(text)} characters; ${limits.name} allows at most ${limits.chars}`];
      return { text };
    },
  };
}

export const parseSocialPosts = (text: string, platform?: string) => parseList(text, postKind(postLimits(platform)));

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['posts'],
  properties: { posts: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } } } },
};

export async function produceSocialPack(
  input: { topic: string; word_count?: number; platform?: string },
  llm: LlmSettings | undefined,
  attempts: number,
  opts?: ProduceOptions,
): Promise<Produced<SocialPack>> {
  const limits = postLimits(input.platform);
  // The word count guides each post's length (a tenth of it), never past what the network takes.
  const perPost = input.word_count ? Math.max(10, Math.min(Math.round(input.word_count / SOCIAL_POSTS), Math.floor(limits.chars / 7))) : undefined;
  const where = limits.id === 'generic' ? (input.platform ?? 'social media') : limits.name;
  const produced = await runAttempts(
    llm,
    {
      system: SYSTEM_WRITER,
      task:
        `Write exactly ${SOCIAL_POSTS} distinct social media posts for ${where} about the topic below, each ready to post with its hashtags, ` +
        `each at most ${limits.chars} characters${perPost ? ` (about ${perPost} words)` : ''}.\n\nTopic:\n${input.topic}`,
      format: `### Post 1\n<the post text>\n\n### Post 2\n<the post text>\n\n…and so on up to Post ${SOCIAL_POSTS}.`,
      schema: { name: 'social_pack', schema: SCHEMA },
      parse: (text) => parseSocialPosts(text, input.platform),
    },
    attempts,
    opts,
  );
  return { ...produced, deliverable: { posts: produced.deliverable, ...(input.platform ? { platform: limits.id === 'generic' ? input.platform : limits.id } : {}) } };
}
