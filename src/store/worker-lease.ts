// A lease on a background worker, held in the database, so that of several instances on one database one at a
// time works through what the shared rows say is due (docs/decisions/postgres.md). The holder renews it while it
// finds work and gives it up when it stops; otherwise a lease runs out LEASE_TTL_MS after its last renewal (a
// holder that died, or one with nothing to do), and the next instance with work takes it. Clocks of instances are
// assumed to agree within seconds.
import type { Db } from './db.js';

/** How long a lease lasts unless renewed; a batch of work must take less than half of it. */
export const LEASE_TTL_MS = 30_000;
/** How long an instance that found the lease taken waits before asking again. */
const RETRY_MS = 1_000;

const TAKE = `INSERT INTO worker_leases (name, holder, until) VALUES (?1, ?2, ?3)
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
  WHERE worker_leases.holder = excluded.holder OR worker_leases.until <= ?4
  RETURNING holder`;

export class WorkerLease {
  /** When the lease this instance holds runs out, as last written (0: not held). */
  private heldUntil = 0;
  /** Not before this time does an instance that found the lease taken ask again. */
  private retryAt = 0;

  constructor(
    private readonly name: string,
    /** This instance's name (the scheduler's owner). */
    private readonly holder: string,
  ) {}

  /** Whether another instance held the lease when this one last asked, less than a second ago: no need to look for work. */
  waiting(now: number): boolean {
    return now < this.retryAt;
  }

  /**
   * Whether this instance may work now: it holds the lease (renewed once half of it has passed), or has just
   * taken it. False while another instance holds it.
   */
  async hold(db: Db, now: number): Promise<boolean> {
    if (now < this.heldUntil - LEASE_TTL_MS / 2) return true;
    if (now < this.retryAt) return false;
    const taken = await db.get<{ holder: string }>(TAKE, [this.name, this.holder, now + LEASE_TTL_MS, now]);
    if (taken) {
      this.heldUntil = now + LEASE_TTL_MS;
      return true;
    }
    this.heldUntil = 0;
    this.retryAt = now + RETRY_MS;
    return false;
  }

  /** Gives the lease up (the worker stops), so another instance may take it at once. */
  async release(db: Db): Promise<void> {
    if (this.heldUntil === 0) return;
    this.heldUntil = 0;
    await db.run('DELETE FROM worker_leases WHERE name = ? AND holder = ?', [this.name, this.holder]);
  }
}
