// The overview's charts as inline SVG, rendered here with Vega-Lite → Vega → `View.toSVG()` (renderer 'none': no
// canvas, no fonts loaded; text is measured by estimate). Each chart's Vega-Lite spec reads a named data set, so it
// is compiled and parsed once per process and each request only runs a view over its rows. Vega escapes every text
// it writes into the SVG (labels, titles, aria descriptions): handles and service names arrive only as data.
// A rendered SVG is kept for its exact data, so a reload with nothing new renders nothing.
// Vega and Vega-Lite are optional packages (src/engines.ts): without them each chart is a line saying how to add them,
// and the page keeps its tables.
import type * as Vega from 'vega';
import type * as VegaLite from 'vega-lite';
import { installCommand, missingEngine } from '../../engines.js';

/** Vega and Vega-Lite are loaded on the first chart, not at start-up (test/startup-imports.test.ts). */
let engines: Promise<{ vega: typeof Vega; vegaLite: typeof VegaLite }> | undefined;
const loadEngines = () => (engines ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, vegaLite]) => ({ vega, vegaLite })));

type Row = Record<string, string | number>;

const BASE = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  width: 380,
  height: 170,
  data: { name: 'table' },
  config: { font: 'system-ui, sans-serif', axis: { labelFontSize: 10, titleFontSize: 11 }, legend: { labelFontSize: 10, titleFontSize: 11, labelLimit: 120 }, view: { stroke: null } },
} as const;

const dayAxis = { field: 'day', type: 'ordinal', title: null, axis: { labelAngle: -45, labelOverlap: 'greedy' } } as const;

export const CHARTS = {
  agents: { ...BASE, mark: { type: 'bar', color: '#3b5bdb' }, encoding: { x: dayAxis, y: { field: 'count', type: 'quantitative', title: 'agents' } } },
  tools: { ...BASE, mark: { type: 'line', point: true }, encoding: { x: dayAxis, y: { field: 'calls', type: 'quantitative', title: 'calls' }, color: { field: 'tool', type: 'nominal', title: null } } },
  revenueByService: {
    ...BASE,
    mark: 'bar',
    encoding: { x: dayAxis, y: { aggregate: 'sum', field: 'usd', type: 'quantitative', title: 'US$' }, color: { field: 'service', type: 'nominal', title: null } },
  },
  revenueByRail: {
    ...BASE,
    mark: 'bar',
    encoding: {
      x: dayAxis,
      y: { aggregate: 'sum', field: 'usd', type: 'quantitative', title: 'US$' },
      color: { field: 'rail', type: 'nominal', title: null, scale: { domain: ['credits', 'x402', 'card'], range: ['#3b5bdb', '#f08c00', '#2f9e44'] } },
    },
  },
  orders: { ...BASE, mark: { type: 'bar', color: '#7048e8' }, encoding: { y: { field: 'status', type: 'nominal', title: null, sort: '-x' }, x: { field: 'count', type: 'quantitative', title: 'orders' } } },
  failures: {
    ...BASE,
    mark: 'bar',
    encoding: { x: dayAxis, y: { field: 'count', type: 'quantitative', title: 'failed' }, color: { field: 'kind', type: 'nominal', title: null, scale: { domain: ['webhook', 'job'], range: ['#e03131', '#f59f00'] } } },
  },
  storage: { ...BASE, mark: { type: 'bar', color: '#0c8599' }, encoding: { y: { field: 'owner', type: 'nominal', title: null, sort: '-x' }, x: { field: 'mb', type: 'quantitative', title: 'MB' } } },
} as const;

export type ChartName = keyof typeof CHARTS;

const runtimes = new Map<ChartName, Vega.Runtime>();
function runtimeOf(name: ChartName, vega: typeof Vega, vegaLite: typeof VegaLite): Vega.Runtime {
  let r = runtimes.get(name);
  if (!r) {
    const compiled = vegaLite.compile(CHARTS[name] as unknown as VegaLite.TopLevelSpec).spec;
    runtimes.set(name, (r = vega.parse(compiled)));
  }
  return r;
}

const CACHE_MAX = 64;
const cache = new Map<string, string>();

/** Forgets every rendered SVG (the bench measures renders with it). */
export const clearChartCache = (): void => cache.clear();

/** The chart over `rows` as an SVG element (the same rows give the cached SVG). */
export async function renderChart(name: ChartName, rows: Row[]): Promise<string> {
  const missing = missingEngine('charts');
  if (missing.length) return engineMissingNote(missing);
  const key = `${name}\0${JSON.stringify(rows)}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const { vega, vegaLite } = await loadEngines();
  const view = new vega.View(runtimeOf(name, vega, vegaLite), { renderer: 'none', logLevel: vega.Error });
  try {
    view.data('table', rows);
    const svg = await view.toSVG();
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(key, svg);
    return svg;
  } finally {
    view.finalize();
  }
}

const html = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What stands in for a chart when its engine is not installed (not cached: installing it brings the charts back). */
const engineMissingNote = (missing: string[]): string =>
  `<p class="engine-missing">No chart: this installation does not include the optional package${missing.length === 1 ? '' : 's'} ${html(missing.join(', '))}. ` +
  `Run <code>${html(installCommand('charts'))}</code> where agent-gateway is installed. The numbers are in the table.</p>`;
