// The one failure of its own this part has: the model kept missing the deliverable's shape. It is a
// GatewayError (upstream_error, 502) so that, should it escape, it renders as the model's fault; the order
// engine catches it first (instanceof ContentShapeError), fails the order and releases its hold.
import { GatewayError } from '../../../src/errors.js';
import type { Usage } from './usage.js';

export class ContentShapeError extends GatewayError {
  /** Tokens spent on every attempt. */
  readonly usage: Usage;
  /** What the last reply missed, one line each. */
  readonly problems: string[];
  readonly attempts: number;

  constructor(message: string, usage: Usage, opts: { problems?: string[]; attempts?: number } = {}) {
    super('upstream_error', message, { extra: { reason: 'content_shape', problems: opts.problems ?? [], attempts: opts.attempts ?? 0 } });
    this.name = 'ContentShapeError';
    this.usage = usage;
    this.problems = opts.problems ?? [];
    this.attempts = opts.attempts ?? 0;
  }
}
