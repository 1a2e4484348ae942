// Operator token check (constant time); no configured token means no operator access at all.
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.js';

export function isOperator(config: Config, presented: string | undefined): boolean {
  if (!config.operatorToken || !presented) return false;
  const a = Buffer.from(config.operatorToken);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
