// The orders' inputs (issue 23), shared with the order tools so a limit lives in one place. Unknown fields are
// refused (the gateway's rule: docs/decisions/spec-fields.md).
import { z } from 'zod';

export const WordCount = z.number().int().min(50).max(5000).describe('Target length in words (50-5000); the deliverable is within ±15%.');
/**
 * An order's `type`: the snake_case id, or the spec's own spelling of it ("email sequence", "social pack"), which
 * is read as the id; the order and its service carry the id.
 */
function orderType<const T extends string>(ids: readonly [T, ...T[]], describe: string) {
  const spelled = ids.filter((id) => id.includes('_')).map((id) => id.replaceAll('_', ' '));
  return z
    .enum([...ids, ...spelled] as [string, ...string[]])
    .transform((t) => t.replaceAll(' ', '_') as T)
    .describe(describe);
}

const Platform = z.string().trim().min(1).max(50).describe('Where it runs: Google Ads, Facebook, LinkedIn, X… (anything else gets generic limits).');

export const CopyInput = z.strictObject({
  type: orderType(['ad', 'email_sequence', 'product_description'], 'ad: 5 variations; email_sequence ("email sequence"): 5 emails; product_description ("product description"): 10 descriptions.'),
  brief: z.string().trim().min(1).max(4000).describe('What to write about: product, audience, offer, voice.'),
  platform: Platform.optional(),
});
export type CopyInput = z.infer<typeof CopyInput>;

export const ContentInput = z
  .strictObject({
    type: orderType(['blog', 'social_pack', 'newsletter'], 'blog: title and body; social_pack ("social pack"): 10 posts; newsletter: subject and body.'),
    topic: z.string().trim().min(1).max(500),
    // A social pack is 10 posts whatever their total length: its word count only guides the posts' length.
    word_count: WordCount.optional(),
    platform: Platform.optional().describe('For a social pack: the network whose post length applies.'),
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'social_pack' && v.word_count === undefined) ctx.addIssue({ code: 'custom', path: ['word_count'], message: `word_count is required for a ${v.type}` });
  });
export type ContentInput = z.infer<typeof ContentInput>;

export const GenerateInput = z.strictObject({
  topic: z.string().trim().min(1).max(500),
  type: z.string().trim().min(1).max(50).describe('What kind of piece: article, landing page, press release…'),
  tone: z.string().trim().min(1).max(50).describe('Voice: friendly, formal, playful…'),
  word_count: WordCount,
});
export type GenerateInput = z.infer<typeof GenerateInput>;

export const DevTaskInput = z.strictObject({
  description: z.string().trim().min(1).max(8000).describe('What to build or change, with its requirements.'),
  language: z.string().trim().min(1).max(40).describe('The programming language of the code.'),
});
export type DevTaskInput = z.infer<typeof DevTaskInput>;

/** What the client wants changed in a delivered dev task. */
export const RevisionNotes = z.string().trim().min(1).max(4000);
