// Start-up loads what serving needs and no more (docs/decisions/startup.md): the packages listed here load with the
// first request that uses them, and the database's threads load no validation library. The test follows the static
// imports from each entry (helpers/import-graph.ts) and names the chain to any listed package it reaches.
import { describe, expect, it } from 'vitest';
import { reach, START_UP } from './helpers/import-graph.js';

const LAZY = [
  '@modelcontextprotocol/sdk', '@modelcontextprotocol/server', '@resvg/resvg-js', '@x402/core', '@x402/evm', 'ajv', 'ajv-formats', 'cheerio',
  'compromise', 'date-holidays', 'eventsource-parser', 'fast-xml-parser', 'jose', 'lighthouse', 'linkedom', 'minisearch', 'node-cron',
  'oidc-provider', 'pg', 'stripe', 'syllable', 'undici', 'unpdf', 'vega', 'vega-lite', 'viem',
];

describe('start-up imports', () => {
  it('reach none of the packages loaded on first use', () => {
    // What `serve` loads: its entry, and the modules it imports while starting.
    const r = reach(START_UP, LAZY);
    expect(r.modules.size).toBeGreaterThan(300); // the graph was followed, not cut short
    expect(r.reached).toEqual([]);
  });

  it('of the database threads load no zod (nor anything above)', () => {
    const r = reach(['src/store/writer-thread.ts', 'src/store/reader-thread.ts', 'src/store/checkpoint-thread.ts'], ['zod', ...LAZY]);
    expect(r.modules.size).toBeGreaterThan(5);
    expect(r.reached).toEqual([]);
  });
});
