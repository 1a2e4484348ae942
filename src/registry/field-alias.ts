// A field the spec names differently from the tool (`quote` for `quote_of`): the tool takes both names, and
// both sent together must say the same thing, or the call is refused rather than one of them being ignored.
import type { z } from 'zod';

/** A refinement for an object input: `alias`, when sent with `field`, must carry the same value. */
export const aliasOf =
  (field: string, alias: string) =>
  (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    if (value[field] === undefined || value[alias] === undefined || value[field] === value[alias]) return;
    ctx.addIssue({ code: 'custom', path: [alias], message: `${alias} is another name for ${field}: send one of them, or both with the same value` });
  };
