// copy.product_description: 10 product descriptions, each a product name and its description. The name may be
// a field ("Title:"), the item's heading ("## 1. Acme Mug") or a bold lead ("1. **Acme Mug** — A sturdy…").
import { runAttempts, type Produced, type ProduceOptions } from './attempts.js';
import { cleanValue, type FieldSpecs } from './fields.js';
import { parseList, type ListKind } from './list.js';
import type { LlmSettings } from './model.js';
import { charCount } from './platforms.js';
import { SYSTEM_WRITER } from './prompts.js';
import { countWords } from './words.js';

export const PRODUCT_DESCRIPTIONS = 10;
/** Fewer words than this is a tagline, not a description. */
export const DESCRIPTION_MIN_WORDS = 15;
const TITLE_MAX = 200;

export interface ProductDescription {
  title: string;
  description: string;
}

export interface ProductDescriptions {
  descriptions: ProductDescription[];
}

type ProductField = keyof ProductDescription;

const FIELDS: FieldSpecs<ProductField> = {
  title: { aliases: ['title', 'product name', 'product title', 'name', 'product'] },
  description: { aliases: ['description', 'product description', 'body', 'copy', 'text', 'details'], multiline: true },
};

/** "**Acme Mug** — A sturdy…" or "Acme Mug: A sturdy…" as a name and the start of its description. */
function nameLine(title: string): { name: string; lead: string } {
  const bold = title.match(/^(?:\*\*|__)(.+?)(?:\*\*|__)\s*[:—–-]?\s*(.*)$/s);
  if (bold) return { name: bold[1].trim(), lead: bold[2].trim() };
  const split = title.match(/^(.{2,80}?)(?:\s[—–-]\s|:\s)(.+)$/s);
  if (split && countWords(split[2]) >= 5) return { name: split[1].trim(), lead: split[2].trim() };
  return { name: title, lead: '' };
}

const KIND: ListKind<ProductField, ProductDescription> = {
  noun: 'product description',
  count: PRODUCT_DESCRIPTIONS,
  words: ['product description', 'product', 'item', 'description'],
  jsonKeys: ['descriptions', 'products', 'product descriptions', 'items'],
  fields: FIELDS,
  lead: ['title'],
  build(f, rest, section) {
    const fromTitle = nameLine(cleanValue(section.title));
    const title = cleanValue(f.title ?? fromTitle.name);
    const description = (f.description ?? [fromTitle.lead, rest].filter(Boolean).join('\n')).trim();
    const problems: string[] = [];
    if (!title) problems.push('no product name ("Title: …")');
    else if (charCount(title) > TITLE_MAX) problems.push(`the product name has ${charCount(title)} characters; at most ${TITLE_MAX}`);
    if (countWords(description) < DESCRIPTION_MIN_WORDS) problems.push(`the description has ${countWords(description)} words; write at least ${DESCRIPTION_MIN_WORDS}`);
    return problems.length ? problems : { title, description };
  },
};

export const parseProductDescriptions = (text: string) => parseList(text, KIND);

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['descriptions'],
  properties: {
    descriptions: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['title', 'description'], properties: { title: { type: 'string' }, description: { type: 'string' } } },
    },
  },
};

export async function produceProductDescriptions(
  input: { brief: string; platform?: string },
  llm: LlmSettings | undefined,
  attempts: number,
  opts?: ProduceOptions,
): Promise<Produced<ProductDescriptions>> {
  const item = (n: number) => `### Product ${n}\nTitle: <product name>\nDescription:\n<the description, one or two paragraphs>`;
  const produced = await runAttempts(
    llm,
    {
      system: SYSTEM_WRITER,
      task:
        `Write exactly ${PRODUCT_DESCRIPTIONS} product descriptions${input.platform ? ` for ${input.platform}` : ''}, each with the product's name and a persuasive description. ` +
        `Use the products the brief names; if it names fewer than ${PRODUCT_DESCRIPTIONS}, write for distinct variants or related products that fit it.\n\nBrief:\n${input.brief}`,
      format: `${item(1)}\n\n${item(2)}\n\n…and so on up to Product ${PRODUCT_DESCRIPTIONS}.`,
      schema: { name: 'product_descriptions', schema: SCHEMA },
      parse: parseProductDescriptions,
    },
    attempts,
    opts,
  );
  return { ...produced, deliverable: { descriptions: produced.deliverable } };
}
