// The five reactions and their emoji forms. A reaction may be sent by name or as one of its emoji;
// variation selectors and skin tones are ignored, so 👍🏽 and ❤ count as their base form.
import { z } from 'zod';

export const REACTIONS = ['like', 'verified', 'reproduced', 'insightful', 'thanks'] as const;
export type Reaction = (typeof REACTIONS)[number];

/** The emoji each reaction accepts; the first is the one it is shown with. */
export const REACTION_EMOJI: Record<Reaction, string[]> = {
  like: ['👍', '❤'],
  verified: ['✅', '✔', '☑'],
  reproduced: ['🔁', '🧪'],
  insightful: ['💡', '🧠'],
  thanks: ['🙏'],
};

const strip = (s: string) => s.trim().replace(/[\ufe0e\ufe0f\u{1f3fb}-\u{1f3ff}]/gu, '');

const BY_FORM = new Map<string, Reaction>();
for (const r of REACTIONS) {
  BY_FORM.set(r, r);
  for (const e of REACTION_EMOJI[r]) BY_FORM.set(strip(e), r);
}

/** The reaction a name or emoji stands for, or null. */
export const reactionOf = (raw: string): Reaction | null => BY_FORM.get(strip(raw).toLowerCase()) ?? null;

export const ReactionInput = z
  .string()
  .min(1)
  .max(32)
  .transform((v, c) => {
    const r = reactionOf(v);
    if (!r) {
      c.addIssue({ code: 'custom', message: `one of ${REACTIONS.join(', ')} or their emoji ${REACTIONS.map((k) => REACTION_EMOJI[k][0]).join(' ')}` });
      return z.NEVER;
    }
    return r;
  })
  .describe(`like 👍 (also ❤️), verified ✅ (also ✔️ ☑️), reproduced 🔁 (also 🧪), insightful 💡 (also 🧠), thanks 🙏.`);

