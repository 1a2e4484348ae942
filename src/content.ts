// Curated, read-mostly content (templates, catalogues, ladders) ships as JSON in resources/content and is
// read with lowdb; an operator may override a file by putting one of the same name in <data dir>/content.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSONFileSync } from 'lowdb/node';
import { projectRoot } from './paths.js';

export const CONTENT_DIR = path.join(projectRoot(fileURLToPath(import.meta.url)), 'resources', 'content');

const cache = new Map<string, unknown>();
/** Which file serves a name, re-checked every few seconds: an operator's new override is picked up without a
 * restart, and hot paths (an XP rule per write) do not stat the disk on every call. */
const chosen = new Map<string, { file: string; until: number }>();
const RECHECK_MS = 5000;

function fileFor(name: string, dataDir: string): string {
  const key = `${dataDir}\u0000${name}`;
  const now = Date.now();
  const hit = chosen.get(key);
  if (hit && hit.until > now) return hit.file;
  const override = path.join(dataDir, 'content', `${name}.json`);
  const file = fs.existsSync(override) ? override : path.join(CONTENT_DIR, `${name}.json`);
  chosen.set(key, { file, until: now + RECHECK_MS });
  return file;
}

export function loadContent<T>(name: string, dataDir: string): T {
  const file = fileFor(name, dataDir);
  const hit = cache.get(file);
  if (hit !== undefined) return hit as T;
  const data = new JSONFileSync<T>(file).read();
  if (data === null) throw new Error(`content file ${file} is missing or empty`);
  cache.set(file, data);
  return data;
}
