// The Egress: one per process (the app creates it from config and hands it to tools via ctx). It bundles the
// address policy, the User-Agent and the undici agents whose connections are pinned to checked addresses.
import type { Agent } from 'undici';
import { undici } from '../lazy-undici.js';
import { AddressPolicy } from './address-policy.js';
import { EgressError } from './errors.js';
import { DEFAULT_USER_AGENT, FETCH_DEFAULTS, safeFetch, type FetchContext, type FetchDefaults, type SafeFetchOptions, type SafeResponse } from './fetch.js';
import { pinnedLookup, resolveChecked, systemLookup, type LookupFn, type ResolvedAddress } from './resolve.js';
import { sendWebhook, type WebhookOptions, type WebhookResult } from './webhook.js';

export interface EgressOptions {
  /** CIDR ranges re-permitted by the operator (GATEWAY_EGRESS_ALLOW), e.g. ['127.0.0.1/32']. */
  allow?: readonly string[];
  /** Operator-level override of the fixed User-Agent; callers cannot set it per request. */
  userAgent?: string;
  /** Name resolution; default dns.promises.lookup(all: true). Tests inject fake names here. */
  lookup?: LookupFn;
  /** Overrides of the per-request defaults (maxBytes, timeouts, maxRedirects). */
  defaults?: Partial<FetchDefaults>;
}

export class Egress {
  readonly policy: AddressPolicy;
  readonly userAgent: string;
  readonly defaults: FetchDefaults;
  private readonly lookup: LookupFn;
  /** One agent per connect timeout in use (the timeout is an agent-level option in undici). */
  private readonly agents = new Map<number, Agent>();
  private readonly context: FetchContext;
  private closed = false;

  constructor(opts: EgressOptions = {}) {
    this.policy = new AddressPolicy(opts.allow ?? []);
    this.userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;
    this.defaults = { ...FETCH_DEFAULTS, ...opts.defaults };
    this.lookup = opts.lookup ?? systemLookup;
    this.context = {
      policy: this.policy,
      userAgent: this.userAgent,
      defaults: this.defaults,
      dispatcher: (ms) => this.agentFor(ms),
    };
  }

  private async agentFor(connectTimeoutMs: number): Promise<Agent> {
    const { Agent } = await undici();
    if (this.closed) throw new EgressError('connect', 'The egress client is closed.');
    let agent = this.agents.get(connectTimeoutMs);
    if (!agent) {
      agent = new Agent({
        connect: { timeout: connectTimeoutMs, lookup: pinnedLookup(this.policy, this.lookup) },
        keepAliveTimeout: 4_000,
      });
      this.agents.set(connectTimeoutMs, agent);
    }
    return agent;
  }

  /** Fetches a URL under the policy (see SafeFetchOptions); every failure is an EgressError. */
  fetch(url: string | URL, opts: SafeFetchOptions = {}): Promise<SafeResponse> {
    return safeFetch(this.context, url, opts);
  }

  /** A host's addresses, resolved once and each allowed by the policy (else an EgressError): for connections the
   * gateway makes outside fetch, such as the browser proxy's. */
  resolve(hostname: string): Promise<ResolvedAddress[]> {
    return resolveChecked(hostname, this.policy, this.lookup);
  }

  /** POSTs a signed JSON webhook through this egress, with retries. */
  sendWebhook(opts: WebhookOptions): Promise<WebhookResult> {
    return sendWebhook(this, opts);
  }

  /** Releases the connection pools; later fetches fail with `connect`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((a) => a.close().catch(() => a.destroy())));
  }
}

export const createEgress = (opts: EgressOptions = {}): Egress => new Egress(opts);
