// The commercial platform's shared services (issue 23): accounts and the rails orders are paid through.
import type { Accounts } from './accounts.js';
import type { RailName, Rail } from './rails.js';

export interface Commerce {
  accounts: Accounts;
  /** The rails this gateway offers: the prepaid balance always, x402, and cards when Stripe is configured. */
  rails: Map<RailName, Rail>;
}

/** The route an order of `service` is placed at (the resource an x402 payment for it names). */
export function orderPath(service: string): string {
  if (service.startsWith('copy.')) return '/copy/orders';
  if (service.startsWith('seo.')) return '/seo/audits';
  const own: Record<string, string> = {
    'content.generate': '/v1/content/generate',
    'dev.task': '/dev/tasks',
    review: '/review',
    code_review: '/v1/code-review',
    extract: '/extract',
    chat: '/v1/chat/completions',
  };
  return own[service] ?? '/orders';
}
