// The V8 heaps' slack (docs/decisions/cache-bounds.md). After each full collection V8 lets the old generation grow
// to a multiple of what survived before it collects again; under a high allocation rate it picks up to four times:
// a main heap of 70 MB live reached 255 MB in the soak, and resident memory swung with it. GATEWAY_HEAP_GROWTH_PERCENT
// fixes the multiple at 1 + percent/100 for every thread of the process (the flag is V8's, process-wide); 0 leaves
// V8 to choose.
import v8 from 'node:v8';

export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
