// Input that a tool's schema lets through but the order's work would refuse with 422, checked when the order is
// placed, before anything is held: a 422 on the input never records an order (issue 43). By the order's service.
import { checkUrl } from './extract/fetch.js';

const CHECKS: Record<string, (input: Record<string, unknown>) => void> = {
  // An extraction reads its URL in its work; a source that is not an http(s) URL is refused there as here.
  extract: (input) => {
    if (input.source_type === 'url' && typeof input.source === 'string') checkUrl(input.source);
  },
};

/** Throws the 422 the work would answer, before the order is placed. */
export function checkOrderInput(service: string, input: Record<string, unknown>): void {
  CHECKS[service]?.(input);
}
