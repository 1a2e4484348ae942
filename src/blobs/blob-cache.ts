// Recently used blobs kept in memory, least recently used out first. Blobs are content-addressed and never
// change, so a cached copy is always right; a delete drops it. Large blobs are not kept.
import { ByteLru } from '../byte-lru.js';

export class BlobCache {
  private readonly lru: ByteLru<Buffer>;

  constructor(
    maxBytes: number,
    private readonly maxItemBytes: number,
  ) {
    this.lru = new ByteLru(maxBytes);
  }

  get(sha256: string): Buffer | undefined {
    return this.lru.get(sha256);
  }

  set(sha256: string, bytes: Buffer): void {
    if (bytes.length <= this.maxItemBytes) this.lru.set(sha256, bytes, bytes.length);
  }

  delete(sha256: string): void {
    this.lru.delete(sha256);
  }
}
