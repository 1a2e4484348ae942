// An order as its account sees it: state, price, hold and result; never the rail's private data or the
// webhook secret.
import { microToUsd } from '../../src/commerce/prices.js';
import type { OrderRow } from '../../src/store/orders.js';

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

export function orderView(o: OrderRow, apiBase: string) {
  return {
    order_id: o.id,
    service: o.service,
    status: o.status,
    price: { usd: microToUsd(o.price), micro_usd: o.price, price_id: o.price_id },
    payment: {
      rail: o.rail,
      state: o.payment_state,
      held_micro_usd: o.payment_state === 'held' ? o.hold_amount : 0,
      charged_micro_usd: o.payment_state === 'captured' ? (o.charged ?? 0) : 0,
      charged_usd: o.payment_state === 'captured' ? microToUsd(o.charged ?? 0) : '0',
    },
    input: JSON.parse(o.input) as unknown,
    result: o.result === null ? null : (JSON.parse(o.result) as unknown),
    usage: o.usage === null ? null : (JSON.parse(o.usage) as unknown),
    error: o.error,
    revisions: o.revisions,
    created_at: iso(o.created_at),
    updated_at: iso(o.updated_at),
    delivered_at: iso(o.delivered_at),
    closed_at: iso(o.closed_at),
    accept_by: iso(o.accept_by),
    url: `${apiBase}/orders/${o.id}`,
  };
}
