// The commercial group's prices (the spec's "Prices (commercial group)" table), in one table that the operator
// may override with GATEWAY_COMMERCIAL_PRICES (JSON: {"copy.ad": "4.50"}). Prices are decimal US dollars; orders
// hold and capture micro-dollars, the unit of the gateway's credits and of USDC's atomic units.
import { toAtomicUnits } from '../billing/price.js';

export const DEFAULT_PRICES = {
  // Fixed-price orders.
  review: '25',
  'seo.quick': '10',
  'seo.deep': '30',
  'copy.ad': '5',
  'copy.email_sequence': '15',
  'copy.product_description': '10',
  // A blog post is "15 to 35 USD": by length (up to 800 words, up to 1,500, longer).
  'content.blog.short': '15',
  'content.blog.medium': '25',
  'content.blog.long': '35',
  'content.social_pack': '5',
  'content.newsletter': '25',
  'dev.simple': '25',
  'dev.medium': '100',
  'dev.complex': '250',
  // Metered per 1,000 tokens (prompt and completion).
  'chat.per_1k_tokens': '0.05',
  'code_review.per_1k_tokens': '0.10',
  'extract.per_1k_tokens': '0.10',
  // The spec gives no rate for content generation; it is priced as chat is.
  'content.generate.per_1k_tokens': '0.05',
} as const;

export type PriceId = keyof typeof DEFAULT_PRICES;
/** Micro-dollars per price id. */
export type PriceTable = Record<PriceId, number>;

const MICRO_DECIMALS = 6;
/** The most one order may cost: keeps every sum exact and a mistyped override harmless. */
const MAX_PRICE_USD = 100_000;

export const usdToMicro = (usd: string): number => Number(toAtomicUnits(usd, MICRO_DECIMALS));

/** Micro-dollars as a decimal dollar string: 5_000_000 → "5", 1_500 → "0.0015". */
export function microToUsd(micro: number): string {
  const whole = Math.floor(micro / 1_000_000);
  const frac = String(micro % 1_000_000).padStart(MICRO_DECIMALS, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** The table with the operator's overrides; throws an Error naming the bad entry. */
export function priceTable(overridesJson: string | undefined): PriceTable {
  const table = Object.fromEntries(Object.entries(DEFAULT_PRICES).map(([k, v]) => [k, usdToMicro(v)])) as PriceTable;
  if (!overridesJson) return table;
  let parsed: unknown;
  try {
    parsed = JSON.parse(overridesJson);
  } catch {
    throw new Error('not JSON: expected an object of price ids to decimal US dollars, e.g. {"copy.ad": "4.50"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('expected a JSON object of price ids to decimal US dollars');
  for (const [id, usd] of Object.entries(parsed)) {
    if (!(id in DEFAULT_PRICES)) throw new Error(`unknown price id "${id}" (known: ${Object.keys(DEFAULT_PRICES).join(', ')})`);
    if (typeof usd !== 'string' || !/^\d+(\.\d{1,6})?$/.test(usd) || Number(usd) > MAX_PRICE_USD) {
      throw new Error(`"${id}": expected decimal US dollars as a string with at most 6 decimals, at most ${MAX_PRICE_USD}`);
    }
    table[id as PriceId] = usdToMicro(usd);
  }
  return table;
}

/** Micro-dollars for `tokens` at a per-1K rate, rounded up to the micro-dollar. */
export const meteredPrice = (per1k: number, tokens: number): number => Math.ceil((per1k * tokens) / 1000);
