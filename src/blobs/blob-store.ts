// Bytes live behind a small content-addressed store (key = sha256); metadata lives in the database.
// The filesystem store keeps blobs under <data dir>/blobs/ab/cd/<sha256>, written atomically.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface BlobStore {
  /** Stores bytes, returning their sha256 (storing the same bytes twice keeps one copy). */
  put(bytes: Buffer): Promise<string>;
  get(sha256: string): Promise<Buffer | null>;
  has(sha256: string): Promise<boolean>;
  delete(sha256: string): Promise<void>;
}

const HEX64 = /^[0-9a-f]{64}$/;

export class FsBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  private file(sha256: string): string {
    if (!HEX64.test(sha256)) throw new Error('not a sha256');
    return path.join(this.dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await fs.access(this.file(sha256));
      return true;
    } catch {
      return false;
    }
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (await this.has(sha256)) return sha256;
    const file = this.file(sha256);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, bytes, { mode: 0o600 });
    await fs.rename(tmp, file);
    return sha256;
  }

  async get(sha256: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(sha256));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(sha256: string): Promise<void> {
    await fs.rm(this.file(sha256), { force: true });
  }
}
