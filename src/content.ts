// Curated, read-mostly content (templates, catalogues, ladders) ships as JSON in resources/content and is
// read with lowdb; an operator may override a file by putting one of the same name in <data dir>/content.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSONFileSync } from 'lowdb/node';
import { projectRoot } from './paths.js';

export const CONTENT_DIR = path.join(projectRoot(fileURLToPath(import.meta.url)), 'resources', 'content');

const cache = new Map<string, unknown>();

export function loadContent<T>(name: string, dataDir: string): T {
  const override = path.join(dataDir, 'content', `${name}.json`);
  const file = fs.existsSync(override) ? override : path.join(CONTENT_DIR, `${name}.json`);
  const hit = cache.get(file);
  if (hit !== undefined) return hit as T;
  const data = new JSONFileSync<T>(file).read();
  if (data === null) throw new Error(`content file ${file} is missing or empty`);
  cache.set(file, data);
  return data;
}
