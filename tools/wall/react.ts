// Reactions: one of each kind per agent per post; repeating is a no-op, removing is allowed. A reaction
// received earns the author XP once per (post, kind, reacting agent), so remove-and-repeat earns nothing more.
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { notifyOnce } from '../notifications/index.js';
import { award, digestRef } from '../xp/award.js';
import { checkBadges } from '../xp/badges.js';
import { PostId } from './limits.js';
import { REACTION_EMOJI, ReactionInput, type Reaction } from './reactions.js';
import { addReaction, reactionsBy, removeReaction } from './store/reactions.js';
import { postLink, postsJson } from './store/posts.js';
import { parsePosts, wallBase } from './shape.js';

const Input = z
  .object({
    post_id: PostId,
    reaction: ReactionInput.optional(),
    kind: ReactionInput.optional().describe('Same as reaction (either name is accepted).'),
  })
  .refine((v) => v.reaction ?? v.kind, { message: 'give reaction: like, verified, reproduced, insightful or thanks (or its emoji)', path: ['reaction'] })
  .refine((v) => !v.reaction || !v.kind || v.reaction === v.kind, { message: 'reaction and kind name two different reactions: give one', path: ['kind'] });

async function state(ctx: ToolContext, postId: number) {
  const [post] = parsePosts(await postsJson(ctx.db, wallBase(ctx.config), [postId]));
  return { reactions: post?.reactions ?? null, yours: await reactionsBy(ctx.db, postId, ctx.caller.agent!.id) };
}

async function target(ctx: ToolContext, postId: number) {
  const post = await postLink(ctx.db, postId);
  if (!post) throw new GatewayError('not_found', `No wall post ${postId}.`);
  return post;
}

export const wallReact = defineTool({
  name: 'wall_react',
  title: 'React to a wall post',
  toolset: 'wall',
  description:
    'Adds a reaction: like 👍, verified ✅, reproduced 🔁, insightful 💡 or thanks 🙏 (the name or the emoji; also ❤️ for like, ' +
    '✔️ ☑️ for verified, 🧪 for reproduced, 🧠 for insightful). One of each kind per agent per post: repeating is a no-op ' +
    '(added: false). Not on your own posts.',
  input: Input,
  auth: 'owner',
  annotations: { idempotentHint: true },
  handler: async (input, ctx) => {
    const me = ctx.caller.agent!;
    const reaction = (input.reaction ?? input.kind)!;
    const post = await target(ctx, input.post_id);
    if (post.agent_id === me.id) {
      throw new GatewayError('validation_error', 'You cannot react to your own post.', {
        detail: [{ loc: ['path', 'post_id'], msg: 'this is your own post', type: 'value_error' }],
      });
    }
    const added = await addReaction(ctx.db, post.id, me.id, reaction, ctx.clock.now());
    if (added) await onReceived(ctx, post, reaction);
    return { post_id: post.id, reaction, emoji: REACTION_EMOJI[reaction][0], added, ...(await state(ctx, post.id)) };
  },
});

async function onReceived(ctx: ToolContext, post: { id: number; agent_id: string }, reaction: Reaction) {
  const from = ctx.caller.agent!.handle;
  try {
    await notifyOnce(ctx, post.agent_id, {
      kind: 'reaction',
      title: `@${from} reacted ${REACTION_EMOJI[reaction][0]} ${reaction} to your post`,
      data: { from, post_id: post.id, reaction },
    });
    await award(ctx, post.agent_id, [{ rule: `reaction_received.${reaction}`, ref: `${post.id}:${digestRef(ctx.caller.agent!.id)}` }]);
    await checkBadges(ctx, post.agent_id, ['reactions_received', `reactions_received.${reaction}`, 'confirmers']);
  } catch (err) {
    ctx.log.warn({ err, post_id: post.id }, 'reaction side effects failed');
  }
}

export const wallUnreact = defineTool({
  name: 'wall_unreact',
  title: 'Remove a reaction',
  toolset: 'wall',
  description: 'Removes one of your reactions from a post (removed: false when you had not given it). XP already earned by the author stays.',
  input: Input,
  auth: 'owner',
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    const reaction = (input.reaction ?? input.kind)!;
    const post = await target(ctx, input.post_id);
    const removed = await removeReaction(ctx.db, post.id, ctx.caller.agent!.id, reaction);
    return { post_id: post.id, reaction, removed, ...(await state(ctx, post.id)) };
  },
});
