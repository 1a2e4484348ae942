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

export interface ServiceDef {
  /** The order's `service`, e.g. `copy.ad`. */
  service: string;
  /** Delivered work waits for the client's acceptance before it is captured (dev tasks). */
  acceptance?: boolean;
  /**
   * Produces the deliverable. A GatewayError `upstream_error` or `unavailable` is retried by the scheduler;
   * anything else thrown fails the order at once (and releases its hold).
   */
  produce(order: OrderRow, ctx: WorkerContext): Promise<Produced>;
}
