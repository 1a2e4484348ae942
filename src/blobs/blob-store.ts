// Bytes live behind a small content-addressed store (key = sha256); metadata lives in the database.
// The filesystem store keeps blobs under <data dir>/blobs/ab/cd/<sha256>, written atomically.
import { poolBytes } from '../random.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import { BlobCache } from './blob-cache.js';
import type { Content } from './content.js';

export interface BlobStore {
  /** Stores content under its sha256 (storing the same bytes twice keeps one copy). */
  put(content: Content): Promise<void>;
  get(sha256: string): Promise<Buffer | null>;
  has(sha256: string): Promise<boolean>;
  delete(sha256: string): Promise<void>;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** What a partial gathering write left to write. */
function remainder(chunks: Buffer[], written: number): Buffer[] {
  let i = 0;
  while (i < chunks.length && written >= chunks[i].length) written -= chunks[i++].length;
  return i < chunks.length && written > 0 ? [chunks[i].subarray(written), ...chunks.slice(i + 1)] : chunks.slice(i);
}

export class FsBlobStore implements BlobStore {
  // Recently downloaded blobs up to 2 MB each (GATEWAY_BLOB_CACHE_BYTES in all): repeated downloads skip the disk.
  // Uploads are not cached: holding every new megabyte made the garbage collector the largest cost of an upload.
  private readonly cache: BlobCache;
  // Fan-out directories known to exist, so a put costs one write and one rename.
  private readonly dirs = new Set<string>();

  constructor(
    private readonly dir: string,
    cacheBytes = 32 * 1024 * 1024,
  ) {
    this.cache = new BlobCache(cacheBytes, 2 * 1024 * 1024);
  }

  private file(sha256: string): string {
    if (!HEX64.test(sha256)) throw new Error('not a sha256');
    return path.join(this.dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async has(sha256: string): Promise<boolean> {
    if (this.cache.get(sha256)) return true;
    try {
      await fs.access(this.file(sha256));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * A temporary file in the blob's directory, written with one gathering write, then renamed into place: a
   * reader never sees a partial blob, and the same content stored twice simply replaces itself.
   */
  async put(content: Content): Promise<void> {
    const file = this.file(content.sha256);
    const tmp = `${file}.${poolBytes(6).toString('hex')}.tmp`;
    await this.writeNew(tmp, content.chunks);
    await fs.rename(tmp, file);
  }

  private async writeNew(file: string, chunks: Buffer[]): Promise<void> {
    const dir = path.dirname(file);
    if (!this.dirs.has(dir)) await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'wx', 0o600);
    } catch (err) {
      // Someone removed the directory since we made it: make it again, once.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      handle = await fs.open(file, 'wx', 0o600);
    }
    this.dirs.add(dir);
    try {
      let left = chunks;
      while (left.length) {
        const { bytesWritten } = await handle.writev(left);
        left = remainder(left, bytesWritten);
      }
    } finally {
      await handle.close();
    }
  }

  async get(sha256: string): Promise<Buffer | null> {
    const cached = this.cache.get(sha256);
    if (cached) return cached;
    try {
      const bytes = await fs.readFile(this.file(sha256));
      this.cache.set(sha256, bytes);
      return bytes;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(sha256: string): Promise<void> {
    this.cache.delete(sha256);
    await fs.rm(this.file(sha256), { force: true });
  }
}
