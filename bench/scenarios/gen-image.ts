// Issue 22 target: gen_image of a Vega-Lite bar chart p50 ≤ 150 ms: a 2026-07-28 tools/call through the built
// gateway's MCP endpoint (paid with an enterprise key), sequential, after a warm-up that starts the render
// process. Beside it, the same render in this process without the gateway (compile, SVG, rasterise), and the
// PNG's size, so the cost of the MCP call, the artifact and the render process's IPC shows.
import { performance } from 'node:perf_hooks';
import { render } from '../../tools/gen-image/render.js';
import { checkToolCall, modernHeaders, modernToolCallBodies } from '../lib/mcp-session.js';
import { BENCH_OPERATOR_TOKEN, enterpriseKey, startGateway } from '../lib/processes.js';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const BAR_CHART = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  title: 'Sales by quarter',
  width: 400,
  height: 250,
  data: { values: ['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6', 'Q7', 'Q8'].map((q, i) => ({ quarter: q, sales: 20 + ((i * 37) % 80) })) },
  mark: 'bar',
  encoding: { x: { field: 'quarter', type: 'nominal', title: 'Quarter' }, y: { field: 'sales', type: 'quantitative', title: 'Sales (k€)' } },
};

export async function genImage(): Promise<string> {
  const gw = await startGateway({ GATEWAY_OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN });
  try {
    const key = await enterpriseKey(gw.url);
    const headers = { ...modernHeaders('gen_image'), 'x-api-key': key };
    const body = modernToolCallBodies('gen_image', { spec: BAR_CHART });
    const t0 = performance.now();
    await checkToolCall(`${gw.url}/mcp`, headers, body()); // starts the render process
    const firstMs = performance.now() - t0;
    let bytes = 0;
    const call = async () => {
      const text = await (await fetch(`${gw.url}/mcp`, { method: 'POST', headers, body: body() })).text();
      bytes = text.length;
    };
    for (let i = 0; i < 30; i++) await call(); // warm-up: JIT in the gateway and the render process
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await call();
      times.push(performance.now() - t);
    }
    // The render alone, in this process: compile + Vega's SVG + resvg.
    for (let i = 0; i < 30; i++) await render({ spec: BAR_CHART, scale: 1 });
    const alone: number[] = [];
    const parts = { compile: [] as number[], svg: [] as number[], raster: [] as number[] };
    let size = '';
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      const r = await render({ spec: BAR_CHART, scale: 1 });
      alone.push(performance.now() - t);
      if (!r.ok) throw new Error(r.message);
      parts.compile.push(r.ms.compile);
      parts.svg.push(r.ms.svg);
      parts.raster.push(r.ms.raster);
      size = `${r.width}×${r.height}, ${r.png.length} B PNG`;
    }
    return [
      '## gen_image (issue 22)',
      `- Vega-Lite bar chart (${size}; MCP 2026-07-28 tools/call, ${bytes} B answer, sequential): p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms (target p50 ≤ 150 ms); first call (starts the render process) ${firstMs.toFixed(0)} ms`,
      `- the same render in process, no gateway: p50 ${pct(alone, 50).toFixed(1)} ms (Vega-Lite compile + Vega parse ${pct(parts.compile, 50).toFixed(1)} ms, dataflow and SVG ${pct(parts.svg, 50).toFixed(1)} ms, resvg ${pct(parts.raster, 50).toFixed(1)} ms)`,
    ].join('\n');
  } finally {
    await gw.stop();
  }
}
