// The charge step for paid tools: a valid API key with quota left pays with one unit; otherwise an x402
// payment (or agent credits) pays; otherwise 402 with the challenge.
import type { Clock } from '../clock.js';
import type { CallMeta, Caller, Charge, ChargeStep, PricedTool } from '../registry/call-types.js';
import { paymentRequired, paymentRequiredError, resourceUrl, type PaymentSettings } from './challenge.js';
import type { ApiKey, KeyService } from './keys.js';
import { BatchUnits } from './batch-units.js';
import { rateLimitHeaders, type Quota, type QuotaState } from './quota.js';

/** Units a batch reserved up front, spent by its calls without another database write each. */
export interface Prepaid {
  key: ApiKey;
  units: BatchUnits;
  state: QuotaState;
}

/** Pays for a call by other means than a key (x402, credits); filled in by the payment issue. */
export interface PaymentMethod {
  /** Returns a charge when this method applies to the caller, null when it does not. */
  begin(tool: PricedTool, caller: Caller, meta: CallMeta, settings: PaymentSettings): Promise<Charge | null>;
}

const free: Charge = { commit: async () => undefined, release: async () => undefined };

export class Billing implements ChargeStep {
  private readonly methods: PaymentMethod[] = [];

  constructor(
    private readonly keys: KeyService,
    readonly quota: Quota,
    private readonly settings: () => PaymentSettings,
    private readonly baseUrl: () => string,
    readonly clock: Clock,
  ) {}

  addMethod(m: PaymentMethod): void {
    this.methods.push(m);
  }

  async begin(tool: PricedTool, caller: Caller, meta: CallMeta): Promise<Charge> {
    const prepaid = caller.billing?.prepaid as Prepaid | undefined;
    const reserved = prepaid?.units.take(tool.name);
    if (reserved) {
      Object.assign(meta.headers, rateLimitHeaders(prepaid!.key, prepaid!.state));
      return reserved;
    }
    const bought = caller.billing?.purchased;
    const unit = bought instanceof BatchUnits ? bought.take(tool.name) : null;
    if (unit) return unit;
    let reason = 'Payment required: send X-API-Key (free keys: POST /keys/issue) or pay per call with x402 (PAYMENT-SIGNATURE).';
    const presented = caller.credentials.apiKey;
    if (presented) {
      const key = await this.keys.resolve(presented);
      if (!key) {
        reason = 'The API key is not valid. Get a free key with POST /keys/issue, or pay per call with x402.';
      } else {
        const q = await this.quota.consume(key, [tool.name]);
        Object.assign(meta.headers, rateLimitHeaders(key, q));
        if (q.ok) return { commit: async () => undefined, release: () => this.quota.refund(key, [tool.name]) };
        reason =
          q.refusedBy === '*'
            ? `The monthly quota of this ${key.tier} key is used up (${q.limit} calls); it resets at ${new Date(q.resetAt * 1000).toISOString()}. Pay per call with x402 above quota.`
            : `This ${key.tier} key's monthly allowance for ${tool.name} is used up; pay per call with x402 above it.`;
      }
    }
    return this.purchase(tool, caller, meta, reason);
  }

  /**
   * Pays for `tool` by a payment method (x402, credits), or throws 402 with its challenge saying `reason`: a
   * call no key covers, or a batch bought as one (a tool priced as the sum of its paid calls).
   */
  async purchase(tool: PricedTool, caller: Caller, meta: CallMeta, reason: string): Promise<Charge> {
    const settings = this.settings();
    for (const m of this.methods) {
      const charge = await m.begin(tool, caller, meta, settings);
      if (charge) return charge;
    }
    const url = resourceUrl(tool, caller.credentials.transport, this.baseUrl());
    throw paymentRequiredError(paymentRequired(tool, settings, url, reason), meta.headers);
  }

  /**
   * Reserves quota for a batch's paid calls in one write; the calls then spend it locally. Returns null when
   * the caller has no valid key or the quota cannot cover all of them (each call is then charged on its own).
   */
  async reserve(caller: Caller, tools: string[]): Promise<Prepaid | null> {
    const presented = caller.credentials.apiKey;
    if (!presented || tools.length === 0) return null;
    const key = await this.keys.resolve(presented);
    if (!key) return null;
    const state = await this.quota.consume(key, tools);
    if (!state.ok) return null;
    return { key, units: new BatchUnits(tools), state };
  }

  /** Returns what a batch reserved but did not spend; resolves with the number of units given back. */
  async settleReservation(p: Prepaid): Promise<number> {
    const unused = p.units.unused();
    if (unused.length) await this.quota.refund(p.key, unused);
    return unused.length;
  }

  static readonly free = free;
}
