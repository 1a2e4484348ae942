// Bytes live behind a small content-addressed store (key = sha256); metadata lives in the database.
// The filesystem store keeps blobs under <data dir>/blobs/ab/cd/<sha256>, written atomically.
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { BlobCache } from './blob-cache.js';

export interface BlobStore {
  /** Stores bytes, returning their sha256 (storing the same bytes twice keeps one copy). */
  put(bytes: Buffer): Promise<string>;
  get(sha256: string): Promise<Buffer | null>;
  has(sha256: string): Promise<boolean>;
  delete(sha256: string): Promise<void>;
}

const HEX64 = /^[0-9a-f]{64}$/;

// Hashing a large blob on the libuv pool (WebCrypto) keeps the event loop free; small ones hash inline.
const OFF_THREAD_HASH = 64 * 1024;

export async function sha256Hex(bytes: Buffer): Promise<string> {
  if (bytes.length < OFF_THREAD_HASH) return createHash('sha256').update(bytes).digest('hex');
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

export class FsBlobStore implements BlobStore {
  // 32 MB of recent blobs up to 2 MB each: repeated downloads of a fresh artifact skip the disk.
  private readonly cache = new BlobCache(32 * 1024 * 1024, 2 * 1024 * 1024);

  constructor(private readonly dir: string) {}

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

  async put(bytes: Buffer): Promise<string> {
    const sha256 = await sha256Hex(bytes);
    if (await this.has(sha256)) return sha256;
    const file = this.file(sha256);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, bytes, { mode: 0o600 });
    await fs.rename(tmp, file);
    this.cache.set(sha256, bytes);
    return sha256;
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
