// The layers hold: .dependency-cruiser.cjs's rules over every module of the tree (docs/architecture.md,
// "Layers and dependency rules"). A broken rule fails here with one line per offending import.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLayers, type LayerCheck } from './helpers/check-layers.js';

const root = path.resolve(import.meta.dirname, '..');
let check: LayerCheck;

beforeAll(async () => {
  check = await checkLayers(root);
}, 120_000);

describe('layers and dependency rules', () => {
  it('reads the real modules, type-only imports included', () => {
    expect(check.modules).toBeGreaterThan(300);
    // `import type` only: the edge a type-only cycle would run through.
    expect(check.edges).toContain('src/workers.ts → src/registry/types.ts');
    expect(check.edges).toContain('tools/index.ts → tools/memory/index.ts');
    expect(check.unresolved).toEqual([]);
  });

  it('breaks no rule of .dependency-cruiser.cjs', () => {
    expect(check.violations, `dependency rules broken (see .dependency-cruiser.cjs):\n${check.violations.join('\n')}\n`).toEqual([]);
  });
});
