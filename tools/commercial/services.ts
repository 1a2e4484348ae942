// What an order's service does when its work runs: produce the deliverable from the order's input. The order
// engine (place.ts, work.ts) knows nothing of copy or code; each service's producer is named in catalog.ts.
import type { OrderRow } from '../../src/store/orders.js';
import type { WorkerContext } from '../../src/registry/types.js';

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface Produced {
  /** Not made yet (a person is on it): look again at this time. */
  recheckAt?: number;
  result?: unknown;
  usage?: TokenUsage;
  /** Micro-dollars to capture when the price is metered (at most the hold); the whole hold otherwise. */
  charge?: number;
}

/** Which attempt at the work this is: a producer may keep a partial result for the last one (the review's engines). */
export interface Attempt {
  number: number;
  /** No attempt follows this one: what is thrown now fails the order. */
  last: boolean;
}

export interface ServiceDef {
  /** The order's `service`, e.g. `copy.ad`. */
  service: string;
  /** Delivered work waits for the client's acceptance before it is captured (dev tasks). */
  acceptance?: boolean;
  /**
   * Produces the deliverable. A GatewayError `upstream_error`, `unavailable` or `rate_limited` is tried again (three
   * attempts: by the scheduler, or within the request for an order made there); anything else thrown, or the last
   * attempt's failure, fails the order (and releases its hold).
   */
  produce(order: OrderRow, ctx: WorkerContext, attempt: Attempt): Promise<Produced>;
}
