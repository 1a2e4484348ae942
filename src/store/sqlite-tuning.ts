// How a SQLite connection is tuned. Apart from src/cache-bounds.ts (which parses it from the environment with zod)
// because the database's threads read it too: a thread that imported the parser would load zod at start-up.

export interface SqliteTuning {
  /** Page cache of each connection, in KiB (SQLite's negative cache_size). */
  cacheKb: number;
  /** Bytes of the database file each reader thread maps (file pages the OS may reclaim); 0: none. */
  mmapBytes: number;
  /** Prepared statements each connection keeps, least recently used out first. */
  statements: number;
  /**
   * Bytes of memory values' words (memory_words) a reader connection keeps, keyed by the stored value itself, so a
   * change of value is a new key and nothing needs invalidating; 0: none. Writers keep none.
   */
  wordsCacheBytes: number;
}

/** Bounds as they were before they were configurable: for code that runs without a Config (scripts, unit tests). */
export const DEFAULT_SQLITE_TUNING: SqliteTuning = { cacheKb: 32_000, mmapBytes: 2 ** 30, statements: 256, wordsCacheBytes: 4 * 1024 * 1024 };
