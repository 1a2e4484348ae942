import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { toolbeltTools } from '../../../tools/toolbelt/index.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const NOW = Date.parse('2026-11-22T00:00:00Z');
const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const msOf = (u: string) => parseInt(u.replace(/-/g, '').slice(0, 12), 16);

describe('uuid', () => {
  const reg = pureRegistry(toolbeltTools);

  it('defaults to one random v4', async () => {
    const out = await callTool(reg, 'uuid', {});
    expect(out.version).toBe(4);
    expect(out.uuids).toHaveLength(1);
    expect(out.uuid).toMatch(V4);
    expect(out.uuid).toBe(out.uuids[0]);
  });

  it('v4 ids are distinct', async () => {
    const out = await callTool(reg, 'uuid', { count: 100 });
    expect(new Set(out.uuids).size).toBe(100);
    for (const u of out.uuids) expect(u).toMatch(V4);
  });

  it('v7 carries the context clock and sorts in creation order (RFC 9562)', async () => {
    const out = await callTool(reg, 'uuid', { version: 7, count: 100 });
    expect(out.version).toBe(7);
    for (const u of out.uuids) {
      expect(u).toMatch(V7);
      expect(msOf(u)).toBeGreaterThanOrEqual(NOW);
      expect(msOf(u)).toBeLessThan(NOW + 50);
    }
    expect([...out.uuids].sort()).toEqual(out.uuids);
    expect(new Set(out.uuids).size).toBe(100);
  });

  it('v7 follows the clock and stays monotonic across calls', async () => {
    const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
    const r = pureRegistry(toolbeltTools, clock);
    const a = (await callTool(r, 'uuid', { version: '7' })).uuid;
    expect(msOf(a)).toBe(clock.now());
    const b = (await callTool(r, 'uuid', { version: 'v7' })).uuid; // same millisecond
    clock.advance(1000);
    const c = (await callTool(r, 'uuid', { version: 7 })).uuid;
    expect(msOf(c)).toBe(clock.now());
    expect([a, b, c].sort()).toEqual([a, b, c]);
    expect(a < b).toBe(true);
  });

  it('accepts query-string counts and rejects out-of-range ones', async () => {
    expect((await callTool(reg, 'uuid', { count: '3' })).uuids).toHaveLength(3);
    for (const bad of [{ count: 0 }, { count: 101 }, { count: 1.5 }, { version: 5 }, { version: 'v1' }]) {
      const err = await callToolError(reg, 'uuid', bad);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
    }
  });
});

describe('random_string', () => {
  const reg = pureRegistry(toolbeltTools);

  it('defaults to one 32-character alphanumeric string', async () => {
    const out = await callTool(reg, 'random_string', {});
    expect(out.strings).toHaveLength(1);
    expect(out.strings[0]).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(out.alphabet_size).toBe(62);
    expect(out.entropy_bits).toBeCloseTo(32 * Math.log2(62), 1);
  });

  it('honours charset, length and count', async () => {
    const out = await callTool(reg, 'random_string', { charset: 'hex', length: '16', count: 5 });
    expect(out.strings).toHaveLength(5);
    for (const s of out.strings) expect(s).toMatch(/^[0-9a-f]{16}$/);
    expect(out.entropy_bits).toBe(64);
    const human = await callTool(reg, 'random_string', { charset: 'human', length: 1024 });
    expect(human.strings[0]).not.toMatch(/[01OlI]/);
  });

  it('uses a custom alphabet by code point', async () => {
    const out = await callTool(reg, 'random_string', { alphabet: '🂡🂢', length: 10 });
    expect([...out.strings[0]]).toHaveLength(10);
    expect(out.strings[0]).toMatch(/^(?:🂡|🂢){10}$/u);
    expect(out.entropy_bits).toBe(10);
  });

  it('rejects duplicate or too-short alphabets and bad lengths', async () => {
    for (const bad of [{ alphabet: 'aab' }, { alphabet: 'a' }, { length: 0 }, { length: 1025 }, { charset: 'emoji' }]) {
      const err = await callToolError(reg, 'random_string', bad);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
    }
  });
});
