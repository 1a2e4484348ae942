// The only way the gateway fetches a URL (docs/architecture.md, "Egress").
export { AddressPolicy, validateAllowList, parseAddress, type AddressVerdict } from './address-policy.js';
export { startBrowserProxy, type BlockedRequest, type BrowserProxy } from './browser-proxy.js';
export { Egress, createEgress, type EgressOptions } from './egress.js';
export { EgressError, isEgressError, type EgressErrorCode } from './errors.js';
export {
  DEFAULT_USER_AGENT,
  FETCH_DEFAULTS,
  safeFetch,
  type FetchContext,
  type FetchDefaults,
  type SafeFetchOptions,
  type SafeResponse,
} from './fetch.js';
export { parseTarget, resolveChecked, systemLookup, type LookupFn, type ResolvedAddress, type Target } from './resolve.js';
export {
  WEBHOOK_HEADERS,
  sendWebhook,
  signWebhook,
  verifyWebhookSignature,
  type WebhookAttempt,
  type WebhookFetcher,
  type WebhookOptions,
  type WebhookResult,
} from './webhook.js';
