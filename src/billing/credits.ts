// Agent credits as a payment method: an agent authenticated by its Bearer secret that sent no API key and no
// x402 payment pays a paid tool from its credit balance. The price is taken atomically before the handler
// runs (never overdrawn), given back if the call fails, and reported in X-Credits-Charged / X-Credits-Balance
// (over MCP in the result's `_meta.credits`). Unit: 1 credit = US$0.000001 (integer micro-dollars).
import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import * as store from '../store/credits.js';
import type { CallMeta, Caller, Charge, Price, PricedTool } from '../registry/call-types.js';
import { newId } from '../auth/secrets.js';
import type { PaymentMethod } from './charge.js';
import { paymentRequired, paymentRequiredError, resourceUrl, type PaymentSettings } from './challenge.js';
import { toAtomicUnits } from './price.js';

/** Credits per US dollar: a credit is one micro-dollar. */
export const CREDITS_PER_USD = 1_000_000;
export const CREDIT_UNIT = 'micro_usd';
const CREDIT_DECIMALS = 6;

/** The price of a tool in credits (exact: prices are decimal dollar strings). */
export const creditsFor = (price: Price): number => Number(toAtomicUnits(price.usd, CREDIT_DECIMALS));

/** A credit amount as a decimal dollar string, e.g. 1500 → "0.0015". */
export function creditsToUsd(credits: number): string {
  const whole = Math.floor(credits / CREDITS_PER_USD);
  const frac = String(credits % CREDITS_PER_USD).padStart(CREDIT_DECIMALS, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export const CREDIT_HEADERS = { charged: 'X-Credits-Charged', balance: 'X-Credits-Balance', required: 'X-Credits-Required' } as const;

export class CreditsPayment implements PaymentMethod {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly baseUrl: () => string,
  ) {}

  async begin(tool: PricedTool, caller: Caller, meta: CallMeta, settings: PaymentSettings): Promise<Charge | null> {
    const c = caller.credentials;
    const agent = caller.agent;
    if (!agent || !tool.price || c.apiKey || c.paymentSignature || c.xPayment) return null;
    const price = creditsFor(tool.price);
    if (price === 0) return { commit: async () => undefined, release: async () => undefined };
    const reference = newId('chg');
    const spent = await store.spendCredits(this.db, {
      agentId: agent.id,
      amount: price,
      reason: `tool:${tool.name}`,
      reference,
      now: this.clock.now(),
    });
    if (!spent) {
      // An authenticated agent without enough credits: the usual x402 challenge, saying what credits lack.
      const balance = await store.balanceOf(this.db, agent.id);
      const reason =
        `Not enough credits: ${tool.name} costs ${price} credits ($${tool.price.usd}) and agent "${agent.handle}" holds ${balance}. ` +
        'Add credits (a store entitlement: POST /v1/entitlements/appstore, or an operator grant), send X-API-Key, ' +
        'or pay per call with x402 (PAYMENT-SIGNATURE).';
      const url = resourceUrl(tool, c.transport, this.baseUrl());
      throw paymentRequiredError(paymentRequired(tool, settings, url, reason), {
        ...meta.headers,
        [CREDIT_HEADERS.balance]: String(balance),
        [CREDIT_HEADERS.required]: String(price),
      });
    }
    let released = false;
    return {
      commit: async (m) => {
        m.headers[CREDIT_HEADERS.charged] = String(price);
        m.headers[CREDIT_HEADERS.balance] = String(spent.balance);
        m.meta.credits = { charged: price, balance: spent.balance, unit: CREDIT_UNIT, reference };
      },
      release: async () => {
        if (released) return;
        released = true;
        await store.grantCredits(this.db, {
          agentId: agent.id,
          kind: 'refund',
          amount: price,
          reason: `refund:${tool.name}`,
          reference,
          now: this.clock.now(),
        });
      },
    };
  }
}
