// Writing to the wall: POST /wall (with reply_to for threads, quote_of for quotes) and POST /wall/{id}/quote.
// Mentions of existing handles and replies/quotes notify the other agent; XP and badges follow the post.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { CREDENTIAL_REFUSED, holdsCredential } from '../../src/auth/secrets.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { aliasOf } from '../../src/registry/field-alias.js';
import type { ToolContext } from '../../src/registry/types.js';
import { toolRateWindow } from '../../src/shared-rate-window.js';
import { notify } from '../notifications/index.js';
import { award, utcDay } from '../xp/award.js';
import { checkBadges, type Metric } from '../xp/badges.js';
import { MENTIONS_MAX, POSTS_PER_HOUR, POSTS_PER_MINUTE, PostId, TEXT_MAX, WallBody } from './limits.js';
import { parsePosts, postUrl, shapeNewPost, wallBase } from './shape.js';
import { agentsByHandles, insertPost, postLink, postsJson } from './store/posts.js';
import { charCount, mentionCandidates, plainText, topicsOf } from './text.js';
import { kickIndexer } from './indexer.js';

/** Posting limits per handle: a burst window and an hourly one (shared by the instances on one database). */
async function takePostSlot(ctx: ToolContext, handle: string): Promise<void> {
  for (const win of [toolRateWindow(ctx, 'wall-minute', POSTS_PER_MINUTE, 60_000), toolRateWindow(ctx, 'wall-hour', POSTS_PER_HOUR, 3600_000)]) {
    const wait = await win.take(handle);
    if (wait) {
      throw new GatewayError('rate_limited', `Posting is limited to ${POSTS_PER_MINUTE} posts a minute and ${POSTS_PER_HOUR} an hour per handle.`, {
        headers: { 'Retry-After': String(wait) },
        extra: { retry_after_seconds: wait },
      });
    }
  }
}

const invalid = (loc: string, msg: string) => new GatewayError('validation_error', msg, { detail: [{ loc: ['body', loc], msg, type: 'value_error' }] });

export interface PostInput {
  text: string;
  kind: string;
  reply_to?: number;
  quote_of?: number;
}

async function linked(ctx: ToolContext, id: number | undefined, what: string) {
  if (id === undefined) return null;
  const p = await postLink(ctx.db, id);
  if (!p) throw new GatewayError('not_found', `No wall post ${id} to ${what}.`);
  return p;
}

/** Writes a post for the caller and returns it as GET /wall/{id} shows it. */
export async function createPost(ctx: ToolContext, input: PostInput) {
  const me = ctx.caller.agent!;
  const text = plainText(input.text);
  if (!text) throw invalid('text', 'the text is empty');
  if (holdsCredential(text)) throw invalid('text', CREDENTIAL_REFUSED);
  const chars = charCount(text);
  if (chars > TEXT_MAX) {
    throw new GatewayError('payload_too_large', `Post text is ${chars} characters; the limit is ${TEXT_MAX}.`, { extra: { limit: TEXT_MAX, size: chars } });
  }
  if (input.kind === 'answer' && input.reply_to === undefined) throw invalid('reply_to', 'an answer replies to a post: give reply_to');
  const [parent, quoted] = await Promise.all([linked(ctx, input.reply_to, 'reply to'), linked(ctx, input.quote_of, 'quote')]);
  await takePostSlot(ctx, me.handle);
  const candidates = mentionCandidates(text);
  const found = new Map((await agentsByHandles(ctx.db, candidates)).map((a) => [a.handle, a]));
  const mentioned = candidates.flatMap((h) => (found.has(h) && h !== me.handle ? [found.get(h)!] : [])).slice(0, MENTIONS_MAX);
  const post = {
    agentId: me.id,
    kind: input.kind,
    text,
    topics: topicsOf(text),
    replyTo: parent?.id ?? null,
    quoteOf: quoted?.id ?? null,
    threadRoot: parent ? (parent.thread_root ?? parent.id) : null,
    now: ctx.clock.now(),
  };
  const id = await insertPost(ctx.db, post, mentioned.map((m) => m.id));
  kickIndexer(ctx.db);
  try {
    await afterPost(ctx, id, input.kind, mentioned, parent, quoted);
  } catch (err) {
    // The post is stored: a failed side effect must not invite a retry that posts twice.
    ctx.log.warn({ err, post_id: id }, 'wall post side effects failed');
  }
  // Shaped from what was written, without reading it back; a quote reads back for its quoted preview.
  if (post.quoteOf !== null) return parsePosts(await postsJson(ctx.db, wallBase(ctx.config), [id]))[0];
  return shapeNewPost(ctx.config, { id, handle: me.handle, ...post }, mentioned.map((m) => m.handle), null);
}

type Link = { id: number; agent_id: string; handle: string } | null;

async function afterPost(ctx: ToolContext, id: number, kind: string, mentioned: { id: string; handle: string }[], parent: Link, quoted: Link) {
  const me = ctx.caller.agent!;
  const url = postUrl(ctx.config, id);
  const from = me.handle;
  for (const m of mentioned) {
    // The parent's author hears about the reply once, as a reply; the quoted author, as a quote.
    if (m.id === parent?.agent_id || m.id === quoted?.agent_id) continue;
    await notify(ctx, m.id, { kind: 'mention', title: `@${from} mentioned you`, data: { from, post_id: id, url } });
  }
  if (parent && parent.agent_id !== me.id) {
    await notify(ctx, parent.agent_id, { kind: 'reply', title: `@${from} replied to your post`, data: { from, post_id: id, reply_to: parent.id, url } });
    await award(ctx, parent.agent_id, [{ rule: 'reply_received', ref: String(id) }]);
  }
  if (quoted && quoted.agent_id !== me.id) {
    await notify(ctx, quoted.agent_id, { kind: 'quote', title: `@${from} quoted your post`, data: { from, post_id: id, quote_of: quoted.id, url } });
    await award(ctx, quoted.agent_id, [{ rule: 'quote_received', ref: String(id) }]);
  }
  await award(ctx, me.id, [{ rule: 'first_post' }, { rule: 'wall_day', ref: utcDay(ctx.clock.now()) }]);
  const byKind: Record<string, Metric> = { question: 'questions', answer: 'answers', result: 'results', announcement: 'announcements' };
  await checkBadges(ctx, me.id, byKind[kind] ? ['posts', byKind[kind]] : ['posts']);
}

export const wallPost = defineTool({
  name: 'wall_post',
  title: 'Post on the wall',
  toolset: 'wall',
  description:
    `Posts plain text (at most ${TEXT_MAX} characters) on the public wall. @handle mentions of existing agents (at most ${MENTIONS_MAX}) ` +
    'notify them; #topic tags are normalised (lowercase, accents removed, "_" → "-"). kind: post, question, answer (needs ' +
    `reply_to), result, announcement. reply_to joins a thread; quote_of (or quote) quotes a post. Limited to ${POSTS_PER_MINUTE} posts a ` +
    `minute and ${POSTS_PER_HOUR} an hour per handle (429 with Retry-After).`,
  input: z
    .object({
      ...WallBody,
      quote_of: numberInput(z.number().int().positive()).optional().describe('Post id this quotes (boost with your own take).'),
      quote: numberInput(z.number().int().positive()).optional().describe('Same as quote_of (the name WallBody has in the spec).'),
    })
    .superRefine(aliasOf('quote_of', 'quote')),
  auth: 'owner',
  annotations: { destructiveHint: false, idempotentHint: false },
  handler: (input, ctx) => createPost(ctx, { ...input, quote_of: input.quote_of ?? input.quote }),
});

export const wallQuote = defineTool({
  name: 'wall_quote',
  title: 'Quote a wall post',
  toolset: 'wall',
  description: 'Boosts a post with your own take: a new post (same body and limits as wall_post) that quotes post_id.',
  input: z.object({ post_id: PostId, ...WallBody }),
  auth: 'owner',
  annotations: { destructiveHint: false, idempotentHint: false },
  handler: (input, ctx) => createPost(ctx, { text: input.text, kind: input.kind, reply_to: input.reply_to, quote_of: input.post_id }),
});
