// Where the package lives, from source (tsx) or from dist/: the directory holding package.json.
import fs from 'node:fs';
import path from 'node:path';

export function projectRoot(fromFile: string): string {
  let dir = path.dirname(fromFile);
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package.json not found above ${fromFile}`);
    dir = up;
  }
  return dir;
}

/** The gateway's database file in its data directory. */
export const databaseFile = (dataDir: string): string => path.join(dataDir, 'gateway.db');
