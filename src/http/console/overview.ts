// The overview page: each chart of the operator_overview answer as inline SVG with its numbers in a table beside it.
import type { Overview } from '../../store/console-overview.js';
import { renderChart, type ChartName } from './charts.js';
import { esc, micro } from './layout.js';

type Cell = string | number;
interface Figure {
  name: ChartName;
  title: string;
  rows: Record<string, string | number>[];
  head: string[];
  cells: Cell[][];
}

/** Sums `value` over rows by (day, key): the table of a stacked chart. */
function byDay<T extends { day: string }>(rows: T[], key: (r: T) => string, value: (r: T) => number): Cell[][] {
  const sums = new Map<string, number>();
  for (const r of rows) {
    const k = `${r.day}\0${key(r)}`;
    sums.set(k, (sums.get(k) ?? 0) + value(r));
  }
  return [...sums].map(([k, v]) => [...(k.split('\0') as [string, string]), v]);
}

function figures(o: Overview): Figure[] {
  const revenue = o.revenue_per_day.map((r) => ({ day: r.day, service: r.service, rail: r.rail, usd: r.amount / 1e6 }));
  return [
    { name: 'agents', title: 'Agents registered per day', rows: o.agents_per_day.map((r) => ({ ...r })), head: ['day', 'agents'], cells: o.agents_per_day.map((r) => [r.day, r.count]) },
    { name: 'tools', title: 'Calls per day, top tools', rows: o.tool_calls_per_day.map((r) => ({ ...r })), head: ['day', 'tool', 'calls'], cells: o.tool_calls_per_day.map((r) => [r.day, r.tool, r.calls]) },
    { name: 'revenueByService', title: 'Revenue per day by service', rows: revenue, head: ['day', 'service', 'revenue'], cells: byDay(o.revenue_per_day, (r) => r.service, (r) => r.amount).map(([d, s, v]) => [d!, s!, micro(Number(v))]) },
    { name: 'revenueByRail', title: 'Revenue per day by rail', rows: revenue, head: ['day', 'rail', 'revenue'], cells: byDay(o.revenue_per_day, (r) => r.rail, (r) => r.amount).map(([d, s, v]) => [d!, s!, micro(Number(v))]) },
    { name: 'orders', title: 'Orders by state', rows: o.orders_by_state.map((r) => ({ ...r })), head: ['state', 'orders'], cells: o.orders_by_state.map((r) => [r.status, r.count]) },
    { name: 'failures', title: 'Failed webhook deliveries and jobs per day', rows: o.failures_per_day.map((r) => ({ ...r })), head: ['day', 'kind', 'failed'], cells: o.failures_per_day.map((r) => [r.day, r.kind, r.count]) },
    {
      name: 'storage',
      title: 'Ten owners using the most storage',
      rows: o.top_storage.map((r) => ({ owner: r.kind === 'agent' ? `@${r.owner}` : r.owner, mb: r.bytes / 1e6 })),
      head: ['owner', 'bytes'],
      cells: o.top_storage.map((r) => [r.kind === 'agent' ? `@${r.owner}` : r.owner, r.bytes]),
    },
  ];
}

const table = (f: Figure): string =>
  f.cells.length === 0
    ? '<p class="empty">Nothing in this window.</p>'
    : `<table data-numbers="${f.name}"><thead><tr>${f.head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${f.cells
        .map((row) => `<tr>${row.map((c) => (typeof c === 'number' ? `<td class="n">${c}</td>` : `<td>${esc(c)}</td>`)).join('')}</tr>`)
        .join('')}</tbody></table>`;

export async function overviewBody(o: Overview): Promise<string> {
  const figs = figures(o);
  const svgs: string[] = [];
  for (const f of figs) svgs.push(await renderChart(f.name, f.rows));
  const windowForm = `<form class="filters" method="get" action="/operator"><label>Window <select name="days">${[7, 30, 90]
    .map((d) => `<option value="${d}"${d === o.days ? ' selected' : ''}>last ${d} days</option>`)
    .join('')}</select></label><button type="submit">Show</button></form>`;
  return `<p>Since ${esc(o.since)} (UTC), ${o.days} days. Amounts in US dollars.</p>${windowForm}<div class="charts">${figs
    .map((f, i) => `<figure class="chart" data-chart="${f.name}"><figcaption>${esc(f.title)}</figcaption><div class="svg">${svgs[i]}</div><div class="numbers">${table(f)}</div></figure>`)
    .join('')}</div>`;
}
