// Copy orders: ad (5 variations), email_sequence (5 emails), product_description (10 descriptions).
import { produceAds, type AdCopy } from './ads.js';
import type { Produced, ProduceOptions } from './attempts.js';
import { produceEmails, type EmailSequence } from './emails.js';
import type { LlmSettings } from './model.js';
import { produceProductDescriptions, type ProductDescriptions } from './products.js';
import type { CopyInput } from './schemas.js';

export type CopyDeliverable = AdCopy | EmailSequence | ProductDescriptions;

export async function produceCopy(input: CopyInput, llm: LlmSettings | undefined, attempts: number, opts?: ProduceOptions): Promise<Produced<CopyDeliverable>> {
  switch (input.type) {
    case 'ad':
      return produceAds(input, llm, attempts, opts);
    case 'email_sequence':
      return produceEmails(input, llm, attempts, opts);
    case 'product_description':
      return produceProductDescriptions(input, llm, attempts, opts);
  }
}
