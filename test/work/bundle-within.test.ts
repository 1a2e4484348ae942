// A fetch_bundle's JSON within the artifact limit (tools/jobs/bundle.ts bundleWithin): every item's metadata stays,
// bodies go from the largest down until it fits, and the work is linear: each item is measured once and the bundle
// serialised once, where serialising it again after each drop held the main thread for seconds (20 bodies of a
// megabyte of control characters, six times that as JSON).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundleWithin, type BundleItem } from '../../tools/jobs/bundle.js';

const MB = 1024 * 1024;
const item = (n: number, text: string): BundleItem => ({
  url: `https://example.com/${n}`,
  final_url: `https://example.com/${n}`,
  ok: true,
  status: 200,
  content_type: 'text/plain',
  bytes: Buffer.byteLength(text),
  sha256: `sha-${n}`,
  text,
});

afterEach(() => vi.restoreAllMocks());

describe('bundleWithin', () => {
  it('keeps a bundle that fits as it is', () => {
    const items = [item(0, 'hello'), item(1, 'world')];
    const out = JSON.parse(bundleWithin('job_1', '2026-11-29T00:00:00.000Z', items, MB).toString());
    expect(out).toEqual({ job_id: 'job_1', fetched_at: '2026-11-29T00:00:00.000Z', items });
    expect(out.items.every((i: BundleItem) => i.error === undefined)).toBe(true);
  });

  it('drops the largest bodies until it fits, keeps the metadata of every item, and serialises each body once', () => {
    const heavy = '\u0001'.repeat(MB); // 6 MB once escaped
    const items = [...Array.from({ length: 20 }, (_, n) => item(n, heavy)), item(20, 'small body')];
    const itemsJson = items.reduce((n, i) => n + JSON.stringify(i, null, 1).length, 0); // about 120 MB
    const original = JSON.stringify;
    let serialised = 0;
    vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
      const text = original(...args);
      serialised += text.length;
      return text;
    });
    const bytes = bundleWithin('job_2', '2026-11-29T00:00:00.000Z', items, MB);
    vi.restoreAllMocks();
    // Each item once and the trimmed bundle once: about 121 MB, where one serialisation per drop made 1.3 GB.
    expect(serialised).toBeLessThan(itemsJson + 4 * MB);
    expect(bytes.length).toBeLessThanOrEqual(MB);
    const out = JSON.parse(bytes.toString()) as { items: BundleItem[] };
    expect(out.items.map((i) => i.url)).toEqual(items.map((i) => i.url));
    for (const i of out.items.slice(0, 20)) {
      expect(i.text).toBeUndefined();
      expect(i).toMatchObject({ bytes: MB, error: { code: 'dropped', message: `body left out: the bundle is limited to ${MB} bytes` } });
    }
    expect(out.items[20]).toMatchObject({ text: 'small body', sha256: 'sha-20' });
    expect(out.items[20].error).toBeUndefined();
  });

  it('drops only as many as needed: of three 400 KB bodies under a 1 MB limit, the two smallest stay', () => {
    const items = [item(0, 'a'.repeat(400_000)), item(1, 'b'.repeat(410_000)), item(2, 'c'.repeat(390_000))];
    const out = JSON.parse(bundleWithin('job_3', '2026-11-29T00:00:00.000Z', items, MB).toString()) as { items: BundleItem[] };
    expect(out.items.map((i) => (i.text === undefined ? 'dropped' : 'kept'))).toEqual(['kept', 'dropped', 'kept']);
  });
});
