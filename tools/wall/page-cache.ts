// Recently read wall pages, each kept with the wall version it was built at (migration 012 bumps the version
// with every change a page could show). A read costs one counter lookup while nothing changed, instead of
// building fifty posts again; the first read after any change rebuilds. Per database, so two gateways in
// one process (tests) or two processes on one file never see each other's pages.
import type { Db } from '../../src/store/db.js';

const MAX_PAGES = 512;

interface Entry {
  version: number;
  value: unknown;
}

const caches = new WeakMap<Db, Map<string, Entry>>();

export const wallVersion = async (db: Db): Promise<number> =>
  (await db.get<{ n: number }>("SELECT n FROM wall_counters WHERE name = 'version'"))?.n ?? 0;

/** The page under `key` as built at the current version, building (and keeping) it when there is none. */
export async function cachedPage<T>(db: Db, key: string, build: () => Promise<T>): Promise<T> {
  let pages = caches.get(db);
  if (!pages) caches.set(db, (pages = new Map()));
  const version = await wallVersion(db);
  const hit = pages.get(key);
  if (hit && hit.version === version) return hit.value as T;
  // Built after reading the version, so a page is never older than the version it is stored under.
  const value = await build();
  pages.delete(key);
  pages.set(key, { version, value });
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value as string);
  return value;
}
