// copy.ad: 5 ad variations (headline, body, call to action) within the platform's limits (platforms.ts).
import { runAttempts, type Produced, type ProduceOptions } from './attempts.js';
import type { FieldSpecs } from './fields.js';
import { parseList, type ListKind } from './list.js';
import type { LlmSettings } from './model.js';
import { adLimits, charCount, type AdLimits } from './platforms.js';
import { SYSTEM_WRITER } from './prompts.js';

export const AD_VARIATIONS = 5;

export interface AdVariation {
  headline: string;
  body: string;
  call_to_action: string;
}

export interface AdCopy {
  variations: AdVariation[];
  /** The platform whose limits were applied (`generic` when unknown). */
  platform: string;
  limits: { headline: number; body: number; call_to_action: number };
}

type AdField = keyof AdVariation;

const FIELDS: FieldSpecs<AdField> = {
  headline: { aliases: ['headline', 'headline text', 'heading', 'header', 'title', 'hook'] },
  body: { aliases: ['body', 'body text', 'body copy', 'description', 'primary text', 'ad text', 'ad copy', 'text', 'copy', 'main text', 'description line'], multiline: true },
  call_to_action: { aliases: ['call to action', 'cta', 'cta button', 'button', 'button text', 'action'] },
};

const NAMES: Record<AdField, string> = { headline: 'headline', body: 'body', call_to_action: 'call to action' };

function adKind(limits: AdLimits): ListKind<AdField, AdVariation> {
  return {
    noun: 'ad variation',
    count: AD_VARIATIONS,
    words: ['ad variation', 'variation', 'variant', 'version', 'option', 'ad'],
    jsonKeys: ['variations', 'ads', 'ad variations'],
    fields: FIELDS,
    lead: ['headline'],
    build(f) {
      const problems: string[] = [];
      for (const key of ['headline', 'body', 'call_to_action'] as const) {
        const v = f[key];
        if (!v) problems.push(`no ${NAMES[key]}`);
        else if (charCount(v) > limits[key]) problems.push(`the ${NAMES[key]} has ${charCount(v)} characters; ${limits.name} allows at most ${limits[key]}`);
      }
      return problems.length ? problems : { headline: f.headline!, body: f.body!.replace(/\s*\n\s*/g, ' '), call_to_action: f.call_to_action! };
    },
  };
}

export function parseAds(text: string, platform?: string) {
  return parseList(text, adKind(adLimits(platform)));
}

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['variations'],
  properties: {
    variations: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['headline', 'body', 'call_to_action'], properties: { headline: { type: 'string' }, body: { type: 'string' }, call_to_action: { type: 'string' } } },
    },
  },
};

export async function produceAds(input: { brief: string; platform?: string }, llm: LlmSettings | undefined, attempts: number, opts?: ProduceOptions): Promise<Produced<AdCopy>> {
  const limits = adLimits(input.platform);
  const where = limits.id === 'generic' ? (input.platform ? `${input.platform} (no known limits: keep them short)` : 'any ad network') : limits.name;
  const variation = (n: number) =>
    `### Variation ${n}\nHeadline: <at most ${limits.headline} characters>\nBody: <at most ${limits.body} characters>\nCall to action: <at most ${limits.call_to_action} characters>`;
  const produced = await runAttempts(
    llm,
    {
      system: SYSTEM_WRITER,
      task:
        `Write ${AD_VARIATIONS} distinct ad variations for ${where}, each with a headline, a body and a call to action, following that platform's norms. ` +
        `Limits, counted in characters including spaces: headline ≤ ${limits.headline}, body ≤ ${limits.body}, call to action ≤ ${limits.call_to_action}.\n\nBrief:\n${input.brief}`,
      format: `${variation(1)}\n\n${variation(2)}\n\n…and so on up to Variation ${AD_VARIATIONS}.`,
      schema: { name: 'ad_variations', schema: SCHEMA },
      parse: (text) => parseAds(text, input.platform),
    },
    attempts,
    opts,
  );
  const { id: _id, name: _name, ...caps } = limits;
  return { ...produced, deliverable: { variations: produced.deliverable, platform: limits.id, limits: caps } };
}
