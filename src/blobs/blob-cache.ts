// Recently used blobs kept in memory, least recently used out first. Blobs are content-addressed and never
// change, so a cached copy is always right; a delete drops it.
export class BlobCache {
  private readonly items = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxItemBytes: number,
  ) {}

  get(sha256: string): Buffer | undefined {
    const b = this.items.get(sha256);
    if (b) {
      this.items.delete(sha256);
      this.items.set(sha256, b);
    }
    return b;
  }

  set(sha256: string, bytes: Buffer): void {
    if (bytes.length > this.maxItemBytes || this.items.has(sha256)) return;
    this.items.set(sha256, bytes);
    this.bytes += bytes.length;
    for (const [k, v] of this.items) {
      if (this.bytes <= this.maxBytes) break;
      this.items.delete(k);
      this.bytes -= v.length;
    }
  }

  delete(sha256: string): void {
    const b = this.items.get(sha256);
    if (!b) return;
    this.items.delete(sha256);
    this.bytes -= b.length;
  }
}
