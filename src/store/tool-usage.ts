// SQL for per-tool daily call counts.
import type { Db } from './db.js';

export interface UsageDelta {
  tool: string;
  day: string;
  calls: number;
  errors: number;
}

export async function addToolUsage(db: Db, deltas: UsageDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await db.transaction(async (tx) => {
    for (const d of deltas) {
      await tx.run(
        `INSERT INTO tool_usage (tool, day, calls, errors) VALUES (?, ?, ?, ?)
         ON CONFLICT (tool, day) DO UPDATE SET calls = tool_usage.calls + excluded.calls, errors = tool_usage.errors + excluded.errors`,
        [d.tool, d.day, d.calls, d.errors],
      );
    }
  });
}

/** Calls per tool since a day (inclusive), most called first. */
export const callsSince = (db: Db, sinceDay: string): Promise<{ tool: string; calls: number; errors: number }[]> =>
  db.all('SELECT tool, SUM(calls) AS calls, SUM(errors) AS errors FROM tool_usage WHERE day >= ? GROUP BY tool ORDER BY calls DESC, tool', [sinceDay]);
