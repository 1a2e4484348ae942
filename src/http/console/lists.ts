// The console's list pages: a filter form (GET), the rows of the operator tool's answer, a pager, and per row the
// action forms (POST, with the form token) that call the operator tools.
import { esc, hidden, iso, micro } from './layout.js';

type Q = URLSearchParams;

const field = (q: Q, name: string, label: string, options?: string[]): string =>
  options
    ? `<label>${esc(label)}<select name="${name}"><option value="">any</option>${options.map((o) => `<option${q.get(name) === o ? ' selected' : ''}>${esc(o)}</option>`).join('')}</select></label>`
    : `<label>${esc(label)}<input type="text" name="${name}" value="${esc(q.get(name) ?? '')}"></label>`;

const filters = (action: string, fields: string): string => `<form class="filters" method="get" action="${action}">${fields}<button type="submit">Filter</button></form>`;

/** Links to the previous and next page, keeping the filters. */
function pager(path: string, q: Q, limit: number, nextOffset: number | null): string {
  const offset = Number(q.get('offset') ?? 0) || 0;
  const link = (o: number, label: string) => {
    const p = new URLSearchParams(q);
    p.set('offset', String(o));
    return `<a href="${path}?${esc(p.toString())}">${label}</a>`;
  };
  return `<div class="pager">${offset > 0 ? link(Math.max(0, offset - limit), '← Newer') : ''}${nextOffset !== null ? link(nextOffset, 'Older →') : ''}</div>`;
}

const table = (head: string[], rows: string[]): string =>
  rows.length === 0 ? '<p class="empty">None.</p>' : `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;

const post = (action: string, token: string, inner: string, button: string) => `<form method="post" action="${esc(action)}">${hidden(token)}${inner}<button type="submit">${button}</button></form>`;

export interface AgentsAnswer {
  agents: { handle: string; created_at: string; last_seen_at: string | null; suspended_at: string | null; credits: number; storage_bytes: number; api_keys: number }[];
  next_offset: number | null;
}
export function agentsBody(a: AgentsAnswer, q: Q, limit: number, token: string): string {
  const rows = a.agents.map((g) => {
    const base = `/operator/console/agents/${encodeURIComponent(g.handle)}`;
    return `<tr data-agent="${esc(g.handle)}"><td>@${esc(g.handle)}</td><td>${iso(g.created_at)}</td><td>${iso(g.last_seen_at)}</td><td>${g.suspended_at ? `suspended ${iso(g.suspended_at)}` : 'active'}</td><td class="n">${g.credits}</td><td class="n">${g.storage_bytes}</td><td class="n">${g.api_keys}</td><td>${post(
      `${base}/credits`,
      token,
      '<input type="number" name="amount" min="1" required placeholder="credits" style="width:7rem"><input type="text" name="reason" required placeholder="reason" style="width:8rem">',
      'Grant',
    )}${post(`${base}/${g.suspended_at ? 'unsuspend' : 'suspend'}`, token, '', g.suspended_at ? 'Lift suspension' : 'Suspend')}${post(`${base}/delete`, token, `<input type="text" name="confirm" required placeholder="type ${esc(g.handle)}" style="width:9rem">`, 'Delete')}</td></tr>`;
  });
  return `${filters('/operator/console/agents', field(q, 'handle', 'Handle starts with'))}${table(['Handle', 'Registered', 'Last seen', 'Status', 'Credits', 'Storage bytes', 'Live keys', 'Actions'], rows)}${pager('/operator/console/agents', q, limit, a.next_offset)}`;
}

export interface OrdersAnswer {
  orders: { order_id: string; email: string; service: string; status: string; rail: string; price_micro_usd: number; payment_state: string; charged_micro_usd: number; refunded_micro_usd: number; created_at: string }[];
  next_offset: number | null;
}
export function ordersBody(a: OrdersAnswer, q: Q, limit: number, token: string): string {
  const rows = a.orders.map((o) => {
    const base = `/operator/console/orders/${encodeURIComponent(o.order_id)}`;
    const actions = [
      ['placed', 'working'].includes(o.status) ? post(`${base}/cancel`, token, '', 'Cancel') : '',
      o.payment_state === 'captured' && o.charged_micro_usd > 0 && o.refunded_micro_usd === 0 ? post(`${base}/refund`, token, '<input type="text" name="reason" required placeholder="reason" style="width:8rem">', 'Refund') : '',
    ].join('');
    return `<tr data-order="${esc(o.order_id)}"><td><code>${esc(o.order_id)}</code></td><td>${esc(o.email)}</td><td>${esc(o.service)}</td><td data-status>${esc(o.status)}</td><td>${esc(o.rail)}</td><td class="n">${micro(o.price_micro_usd)}</td><td data-payment>${esc(o.payment_state)}</td><td class="n">${micro(o.charged_micro_usd)}</td><td class="n" data-refunded>${micro(o.refunded_micro_usd)}</td><td>${iso(o.created_at)}</td><td>${actions}</td></tr>`;
  });
  const fields = field(q, 'status', 'State', ['placed', 'working', 'delivered', 'revision_requested', 'accepted', 'failed', 'canceled']) + field(q, 'rail', 'Rail', ['credits', 'x402', 'card']) + field(q, 'service', 'Service');
  return `${filters('/operator/console/orders', fields)}${table(['Order', 'Account', 'Service', 'State', 'Rail', 'Price', 'Payment', 'Charged', 'Refunded', 'Placed', 'Actions'], rows)}${pager('/operator/console/orders', q, limit, a.next_offset)}`;
}

export interface KeysAnswer {
  keys: { key_id: string; hint: string; tier: string; handle: string | null; created_at: string; revoked_at: string | null }[];
  next_offset: number | null;
}
export function keysBody(a: KeysAnswer, q: Q, limit: number, token: string): string {
  const rows = a.keys.map(
    (k) =>
      `<tr data-key="${esc(k.key_id)}"><td><code>${esc(k.key_id)}</code></td><td><code>${esc(k.hint)}</code></td><td>${esc(k.tier)}</td><td>${k.handle ? `@${esc(k.handle)}` : '—'}</td><td>${iso(k.created_at)}</td><td data-revoked>${iso(k.revoked_at)}</td><td>${k.revoked_at ? '' : post(`/operator/console/keys/${encodeURIComponent(k.key_id)}/revoke`, token, '', 'Revoke')}</td></tr>`,
  );
  const fields = field(q, 'tier', 'Tier', ['free', 'pro', 'enterprise']) + field(q, 'state', 'State', ['active', 'revoked']);
  return `${filters('/operator/console/keys', fields)}${table(['Key', 'Hint', 'Tier', 'Agent', 'Issued', 'Revoked', 'Actions'], rows)}${pager('/operator/console/keys', q, limit, a.next_offset)}`;
}

export interface SettlementsAnswer {
  settlements: { id: string; network: string; payer: string; amount: string; tool: string; status: string; tx_hash: string | null; created_at: string }[];
  next_offset: number | null;
}
export function settlementsBody(a: SettlementsAnswer, q: Q, limit: number): string {
  const rows = a.settlements.map(
    (p) =>
      `<tr data-settlement="${esc(p.id)}"><td><code>${esc(p.id)}</code></td><td>${esc(p.network)}</td><td><code>${esc(p.payer)}</code></td><td class="n">${esc(p.amount)}</td><td>${esc(p.tool)}</td><td>${esc(p.status)}</td><td>${p.tx_hash ? `<code>${esc(p.tx_hash)}</code>` : '—'}</td><td>${iso(p.created_at)}</td></tr>`,
  );
  const fields = field(q, 'status', 'Status', ['verified', 'settling', 'settled', 'failed', 'released', 'recovered', 'abandoned']) + field(q, 'payer', 'Payer address');
  return `${filters('/operator/console/x402', fields)}${table(['Payment', 'Network', 'Payer', 'Amount (atomic)', 'For', 'Status', 'Transaction', 'Claimed'], rows)}${pager('/operator/console/x402', q, limit, a.next_offset)}`;
}
