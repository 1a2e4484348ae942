// Recently read wall pages, each kept with the wall version it was built at (migration 012 bumps the version
// with every change a page could show). A read costs one counter lookup while nothing changed, instead of
// building fifty posts again; the first read after any change rebuilds. Per database, so two gateways in
// one process (tests) or two processes on one file never see each other's pages.
import type { Db } from '../../src/store/db.js';
import { wallState, type WallState } from './store/posts.js';

/**
 * What the kept pages may weigh by default (GATEWAY_WALL_PAGE_CACHE_BYTES): some four hundred pages of fifty posts (about 20 KB each, bytes outside the JS
 * heap). A 64 MB cache caught a quarter of the topic reads in the bench against a twentieth, yet served fewer
 * of them, with a longer tail, in four side-by-side runs out of four (docs/decisions/social.md).
 */
export const MAX_BYTES = 8 * 1024 * 1024;

interface Entry {
  version: number;
  /** Settles once built; concurrent reads of one page share the build. */
  value: Promise<unknown>;
  /** Counted once built. */
  bytes: number;
}

interface Pages {
  /** Least recently read first. */
  byKey: Map<string, Entry>;
  bytes: number;
}

const caches = new WeakMap<Db, Pages>();

/**
 * The page under `key` as built at the current version (or later), building and keeping it when there is
 * none. `build` gets the state read before it (so it can index waiting posts first); `bytesOf` weighs a built
 * page against the cache's budget.
 */
export async function cachedPage<T>(db: Db, key: string, build: (state: WallState) => Promise<T>, bytesOf: (page: T) => number, maxBytes = MAX_BYTES): Promise<T> {
  let pages = caches.get(db);
  if (!pages) caches.set(db, (pages = { byKey: new Map(), bytes: 0 }));
  const state = await wallState(db);
  const version = state.version;
  const hit = pages.byKey.get(key);
  if (hit && hit.version >= version) {
    pages.byKey.delete(key);
    pages.byKey.set(key, hit);
    return hit.value as Promise<T>;
  }
  // Built after reading the version, so a page is never older than the version it is stored under.
  const entry: Entry = { version, value: build(state), bytes: 0 };
  forget(pages, key);
  pages.byKey.set(key, entry);
  try {
    const value = (await entry.value) as T;
    if (pages.byKey.get(key) === entry) {
      entry.bytes = bytesOf(value);
      pages.bytes += entry.bytes;
      for (const oldest of pages.byKey.keys()) {
        if (pages.bytes <= maxBytes) break;
        forget(pages, oldest);
      }
    }
    return value;
  } catch (err) {
    if (pages.byKey.get(key) === entry) pages.byKey.delete(key);
    throw err;
  }
}

function forget(pages: Pages, key: string): void {
  const gone = pages.byKey.get(key);
  if (!gone) return;
  pages.bytes -= gone.bytes;
  pages.byKey.delete(key);
}
