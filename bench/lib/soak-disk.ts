// The soak's disk accounting (issue 42): what clients were acknowledged for storing, per workload, beside what the
// database holds for that workload (SQLite's dbstat: every table with its indexes and full-text shadow tables).
// Acknowledged means retained: a memory key keeps its last GATEWAY_MEMORY_VERSIONS_KEPT versions, so a rewrite beyond
// that replaces the oldest; a wall post, an A2A task and a rate-window hit stay until their retention.
import { Database } from '../../src/store/sqlite-driver.js';

export const WORKLOADS = ['memory', 'wall', 'a2a', 'mcp', 'billing', 'other'] as const;
export type Workload = (typeof WORKLOADS)[number];

/** The workload a table serves, by the prefix of its name (indexes and shadow tables count with their table). */
export function workloadOf(table: string): Workload {
  if (table.startsWith('memory_')) return 'memory';
  if (table.startsWith('wall_')) return 'wall';
  if (table.startsWith('a2a_')) return 'a2a';
  if (table.startsWith('mcp_') || table === 'resource_changes') return 'mcp';
  if (table === 'key_usage' || table === 'api_keys' || table === 'tool_usage' || table === 'rate_hits' || table.startsWith('account_')) return 'billing';
  return 'other';
}

/** Acknowledged bytes per workload, as the load generator counts them. */
export class Acknowledged {
  private readonly versions = new Map<string, number[]>();
  private memoryBytes = 0;
  readonly bytes: Record<Workload, number> = { memory: 0, wall: 0, a2a: 0, mcp: 0, billing: 0, other: 0 };

  constructor(private readonly versionsKept: number) {}

  /** A memory write answered 2xx: the key's history keeps the newest `versionsKept` values. */
  memory(key: string, valueBytes: number): void {
    let kept = this.versions.get(key);
    if (!kept) this.versions.set(key, (kept = []));
    kept.push(valueBytes);
    this.memoryBytes += valueBytes;
    if (kept.length > this.versionsKept) this.memoryBytes -= kept.shift()!;
    this.bytes.memory = this.memoryBytes;
  }

  add(w: Exclude<Workload, 'memory'>, n: number): void {
    this.bytes[w] += n;
  }
}

/** Bytes in the database per workload (the WAL's pages not yet folded in are not counted; the file total is apart). */
export function diskByWorkload(file: string): Record<Workload, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const owner = new Map((db.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')").all() as { name: string; tbl_name: string }[]).map((r) => [r.name, r.tbl_name]));
    const out: Record<Workload, number> = { memory: 0, wall: 0, a2a: 0, mcp: 0, billing: 0, other: 0 };
    for (const r of db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[]) {
      // FTS5 shadow tables (memory_fts_data, …) are tables of their own whose names carry their owner's prefix.
      out[workloadOf(owner.get(r.name) ?? r.name)] += Number(r.bytes);
    }
    return out;
  } finally {
    db.close();
  }
}
