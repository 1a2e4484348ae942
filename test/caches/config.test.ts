// The cache bounds (src/cache-bounds.ts): every one has a default that keeps the tuned sizes, is read from its
// GATEWAY_* variable, and a bad value stops start-up with a message naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('cache bounds in the configuration', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}).caches).toEqual({
      sqlite: { cacheKb: 32_000, mmapBytes: 2 ** 30, statements: 256, wordsCacheBytes: 4 * 1024 * 1024 },
      mcpSseSessions: 1000,
      mcpReplayBytes: 1024 * 1024,
      a2aStreams: 1000,
      sessionsPerClient: 100,
      credentialEntries: 10_000,
      blobBytes: 32 * 1024 * 1024,
      rateWindowKeys: 50_000,
      wallPageBytes: 8 * 1024 * 1024,
      agentEntries: 50_000,
      memoryCards: 1000,
      memoryReadCounts: 200_000,
      heapGrowthPercent: 100,
    });
  });

  it('reads each bound from its variable', () => {
    const c = loadConfig({
      GATEWAY_SQLITE_CACHE_KB: '2000',
      GATEWAY_SQLITE_MMAP_BYTES: '0',
      GATEWAY_SQLITE_STATEMENTS: '16',
      GATEWAY_SQLITE_WORDS_CACHE_BYTES: '0',
      GATEWAY_MCP_MAX_SSE_SESSIONS: '7',
      GATEWAY_MCP_REPLAY_BYTES: '4096',
      GATEWAY_A2A_MAX_STREAMS: '3',
      GATEWAY_SESSIONS_PER_CLIENT: '2',
      GATEWAY_CREDENTIAL_CACHE_ENTRIES: '0',
      GATEWAY_BLOB_CACHE_BYTES: '1024',
      GATEWAY_RATE_WINDOW_KEYS: '100',
      GATEWAY_WALL_PAGE_CACHE_BYTES: '0',
      GATEWAY_AGENT_CACHE_ENTRIES: '5',
      GATEWAY_MEMORY_CARD_CACHE: '2',
      GATEWAY_MEMORY_READ_COUNTS: '9',
      GATEWAY_HEAP_GROWTH_PERCENT: '0',
    }).caches;
    expect(c).toEqual({
      sqlite: { cacheKb: 2000, mmapBytes: 0, statements: 16, wordsCacheBytes: 0 },
      mcpSseSessions: 7,
      mcpReplayBytes: 4096,
      a2aStreams: 3,
      sessionsPerClient: 2,
      credentialEntries: 0,
      blobBytes: 1024,
      rateWindowKeys: 100,
      wallPageBytes: 0,
      agentEntries: 5,
      memoryCards: 2,
      memoryReadCounts: 9,
      heapGrowthPercent: 0,
    });
  });

  it('bounds legacy SSE sessions like Streamable HTTP ones unless told otherwise', () => {
    expect(loadConfig({ GATEWAY_MCP_MAX_SESSIONS: '40' }).caches.mcpSseSessions).toBe(40);
    expect(loadConfig({ GATEWAY_MCP_MAX_SESSIONS: '40', GATEWAY_MCP_MAX_SSE_SESSIONS: '5' }).caches.mcpSseSessions).toBe(5);
  });

  it.each([
    ['GATEWAY_SQLITE_CACHE_KB', '-1'],
    ['GATEWAY_SQLITE_STATEMENTS', '0'],
    ['GATEWAY_MCP_MAX_SSE_SESSIONS', '0'],
    ['GATEWAY_A2A_MAX_STREAMS', 'many'],
    ['GATEWAY_RATE_WINDOW_KEYS', '1.5'],
    ['GATEWAY_BLOB_CACHE_BYTES', '-4096'],
  ])('refuses %s=%s with a message naming the variable', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [key]: value })).toThrow(new RegExp(`${key}="${value}"`));
  });
});
