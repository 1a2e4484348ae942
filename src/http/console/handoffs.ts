// The parked handoffs, each with its complete and reject forms (as the console had from the start).
import { esc, hidden, iso } from './layout.js';

export interface ParkedAnswer {
  handoffs: { handoff_id: string; task: string; context: unknown; created_at: string; expires_at: string }[];
}

export function handoffsBody(a: ParkedAnswer, token: string): string {
  const cards = a.handoffs
    .map(
      (h) => `<div class="card" data-handoff="${esc(h.handoff_id)}"><h2>${esc(h.task.slice(0, 120))}</h2><pre>${esc(h.task)}</pre>${h.context === null ? '' : `<pre>${esc(JSON.stringify(h.context, null, 2))}</pre>`}<p>Parked ${iso(h.created_at)}, expires ${iso(h.expires_at)}</p>
<form method="post" action="/operator/console/${esc(h.handoff_id)}/complete">${hidden(token)}<label>Result <textarea name="result" rows="3" required></textarea></label><button type="submit">Complete</button></form>
<form method="post" action="/operator/console/${esc(h.handoff_id)}/reject">${hidden(token)}<label>Reason <input class="wide" type="text" name="reason" required></label><button type="submit">Reject</button></form></div>`,
    )
    .join('');
  return `<p>${a.handoffs.length} waiting.</p>${cards}`;
}
