// The artifact expiry sweep: bytes of expired artifacts are removed (unless a live artifact shares them) and given back
// to the owner's storage budget; the metadata stays for a week so the URL answers 410 Gone, then it is deleted too (404).
import { dropBlob, orphanBlobs } from '../../src/store/blobs.js';
import { Ticker, type Worker, type WorkerContext } from '../../src/workers.js';
import { deleteExpired, releaseExpiredBytes } from './store.js';

export const GONE_GRACE_MS = 7 * 24 * 3600 * 1000;
/** A blob younger than this is never swept: its artifact row may be on its way in. */
const ATTACH_GRACE_MS = 60_000;
/** Expired artifacts whose bytes one statement gives back to their owners' storage budgets. */
const RELEASE_BATCH = 500;

export async function sweepArtifacts(ctx: WorkerContext): Promise<{ rows: number; blobs: number }> {
  const now = ctx.clock.now();
  const rows = await deleteExpired(ctx.db, now - GONE_GRACE_MS);
  for (let released = RELEASE_BATCH; released === RELEASE_BATCH; ) released = await releaseExpiredBytes(ctx.db, now, RELEASE_BATCH);
  let blobs = 0;
  for (;;) {
    const orphans = await orphanBlobs(ctx.db, now, now - ATTACH_GRACE_MS, 500);
    for (const sha of orphans) {
      if (await dropBlob(ctx.db, sha, now)) {
        await ctx.services.blobs.delete(sha);
        blobs++;
      }
    }
    if (orphans.length < 500) break;
  }
  return { rows, blobs };
}

export function createArtifactWorkers(): Worker[] {
  let ticker: Ticker | null = null;
  return [
    {
      name: 'artifact-sweep',
      start(ctx) {
        ticker = new Ticker(async () => void (await sweepArtifacts(ctx)), 60_000, (err) => ctx.log.warn({ err }, 'artifact sweep failed'));
        ticker.start();
      },
      stop: async () => ticker?.stop(),
    },
  ];
}
