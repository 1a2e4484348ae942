// The better-sqlite3 build this Node can run. Version 13 is a Node-API 10 addon (Node ≥ 22.14): version 12
// and older wrap their objects with node::ObjectWrap, whose destructor aborts Node 24.19+ ("Assertion failed:
// (env) != nullptr" in RemoveEnvironmentCleanupHook) when a garbage collection finalises a statement outside a
// JavaScript context, at the end of a worker thread or on an idle GC of the main one. Version 13 runs on neither
// Node 20 nor 22.13 and older (Node-API 9), so there the optional 12.x build, which they never abort on, is used.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** True where Node offers Node-API 10, the level better-sqlite3 13 is built for. */
export const nodeApi10 = Number(process.versions.napi) >= 10;

export const Database: typeof BetterSqlite3 = nodeApi10 ? require('better-sqlite3') : legacyDriver();

function legacyDriver(): typeof BetterSqlite3 {
  try {
    return require('better-sqlite3-legacy') as typeof BetterSqlite3;
  } catch (err) {
    throw new Error(
      `Node ${process.version} offers Node-API ${process.versions.napi}; better-sqlite3 13 needs 10 (Node 22.14 or newer), ` +
        `and the optional better-sqlite3-legacy build is not installed (${(err as Error).message}). Use Node 22, 24 or 26.`,
    );
  }
}
