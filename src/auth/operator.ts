// Operator token check (constant time); no configured token means no operator access at all.
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.js';
import { GatewayError } from '../errors.js';

export function isOperator(config: Config, presented: string | undefined): boolean {
  if (!config.operatorToken || !presented) return false;
  const a = Buffer.from(config.operatorToken);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Refuses a caller without the operator token (401) or with a wrong one (403). */
export function requireOperator(config: Config, presented: string | undefined): void {
  if (!presented) throw new GatewayError('unauthorized', 'Operator only: send X-Operator-Token.');
  if (!isOperator(config, presented)) throw new GatewayError('forbidden', 'The operator token is not valid.');
}
