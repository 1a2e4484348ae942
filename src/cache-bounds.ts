// The bounds of the in-process caches and tables that grow with use (docs/decisions/cache-bounds.md), parsed with
// the rest of the environment by src/config.ts. Resident memory levels off at what these allow, so each is set
// here and nowhere else; the defaults are the sizes the gateway was tuned with.
import { z } from 'zod';
import type { SqliteTuning } from './store/sqlite-tuning.js';

const count = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const CACHE_ENV = {
  GATEWAY_SQLITE_CACHE_KB: count(0, 4_194_304).default(32_000),
  GATEWAY_SQLITE_MMAP_BYTES: count(0, 2 ** 40).default(2 ** 30),
  GATEWAY_SQLITE_STATEMENTS: count(1, 10_000).default(256),
  GATEWAY_SQLITE_WORDS_CACHE_BYTES: count(0, 2 ** 40).default(4 * 1024 * 1024),
  GATEWAY_MCP_MAX_SSE_SESSIONS: count(1, 1_000_000).optional(),
  GATEWAY_MCP_REPLAY_BYTES: count(0, 2 ** 30).default(1024 * 1024),
  GATEWAY_A2A_MAX_STREAMS: count(1, 1_000_000).default(1000),
  GATEWAY_SESSIONS_PER_CLIENT: count(1, 1_000_000).default(100),
  GATEWAY_CREDENTIAL_CACHE_ENTRIES: count(0, 10_000_000).default(10_000),
  GATEWAY_BLOB_CACHE_BYTES: count(0, 2 ** 40).default(32 * 1024 * 1024),
  GATEWAY_RATE_WINDOW_KEYS: count(1, 10_000_000).default(50_000),
  GATEWAY_WALL_PAGE_CACHE_BYTES: count(0, 2 ** 40).default(8 * 1024 * 1024),
  GATEWAY_AGENT_CACHE_ENTRIES: count(0, 10_000_000).default(50_000),
  GATEWAY_MEMORY_CARD_CACHE: count(0, 10_000_000).default(1000),
  GATEWAY_MEMORY_READ_COUNTS: count(0, 10_000_000).default(200_000),
  GATEWAY_HEAP_GROWTH_PERCENT: count(0, 1000).default(100),
};

/** How a SQLite connection is tuned: its page cache, the statements it keeps prepared, what a reader thread maps. */
export type { SqliteTuning };

export interface CacheBounds {
  sqlite: SqliteTuning;
  /** Legacy SSE MCP sessions (an open stream each); beyond it the least recently used is closed. */
  mcpSseSessions: number;
  /** Bytes of events a 2025-era session keeps for clients resuming a stream (SEP-1699); the oldest go first. */
  mcpReplayBytes: number;
  /** Open A2A event streams (message/stream, tasks/resubscribe); beyond it a new stream is refused. */
  a2aStreams: number;
  /** Of each table of held connections (MCP sessions, legacy SSE, listen and A2A streams), what one client address may hold. */
  sessionsPerClient: number;
  /** Entries of each credential cache (agent secrets, API keys, revenue keys: 30 s each). */
  credentialEntries: number;
  /** Bytes of recently downloaded artifact blobs kept in memory. */
  blobBytes: number;
  /** Client keys each in-process rate window tracks (wall, mail, scratchpad, chat on SQLite). */
  rateWindowKeys: number;
  /** Bytes of built wall pages kept. */
  wallPageBytes: number;
  /** Agents each per-agent memo keeps (badges held, XP awards already in the ledger). */
  agentEntries: number;
  /** Context cards kept (one per agent, rebuilt after any change to its memory). */
  memoryCards: number;
  /** Memory entries whose reads are counted for the context card's "most used". */
  memoryReadCounts: number;
  /** How far a V8 heap grows past what was live before its next full collection, in percent (0: V8 chooses). */
  heapGrowthPercent: number;
}

type CacheEnv = z.output<z.ZodObject<typeof CACHE_ENV>> & { GATEWAY_MCP_MAX_SESSIONS: number };

export function cacheBounds(e: CacheEnv): CacheBounds {
  return {
    sqlite: { cacheKb: e.GATEWAY_SQLITE_CACHE_KB, mmapBytes: e.GATEWAY_SQLITE_MMAP_BYTES, statements: e.GATEWAY_SQLITE_STATEMENTS, wordsCacheBytes: e.GATEWAY_SQLITE_WORDS_CACHE_BYTES },
    mcpSseSessions: e.GATEWAY_MCP_MAX_SSE_SESSIONS ?? e.GATEWAY_MCP_MAX_SESSIONS,
    mcpReplayBytes: e.GATEWAY_MCP_REPLAY_BYTES,
    a2aStreams: e.GATEWAY_A2A_MAX_STREAMS,
    sessionsPerClient: e.GATEWAY_SESSIONS_PER_CLIENT,
    credentialEntries: e.GATEWAY_CREDENTIAL_CACHE_ENTRIES,
    blobBytes: e.GATEWAY_BLOB_CACHE_BYTES,
    rateWindowKeys: e.GATEWAY_RATE_WINDOW_KEYS,
    wallPageBytes: e.GATEWAY_WALL_PAGE_CACHE_BYTES,
    agentEntries: e.GATEWAY_AGENT_CACHE_ENTRIES,
    memoryCards: e.GATEWAY_MEMORY_CARD_CACHE,
    memoryReadCounts: e.GATEWAY_MEMORY_READ_COUNTS,
    heapGrowthPercent: e.GATEWAY_HEAP_GROWTH_PERCENT,
  };
}
