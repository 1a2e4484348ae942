// Tool calls are counted per tool and UTC day in memory and written together; a call after midnight counts on the new day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecorder } from '../../src/billing/usage-recorder.js';
import { ManualClock } from '../../src/clock.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';

describe('the usage recorder', () => {
  let m: MigratedDb;
  beforeAll(async () => {
    m = await migratedDb();
  });
  afterAll(() => m.remove());

  it('writes calls and errors per tool and UTC day, and adds to what a day already has', async () => {
    const clock = new ManualClock(Date.parse('2026-03-01T23:59:59.500Z'));
    const usage = new UsageRecorder(m.db, clock, 60_000);
    usage.record('echo', true);
    usage.record('echo', false);
    usage.record('base64', true);
    clock.advance(1000); // past midnight
    usage.record('echo', true);
    await usage.flush();
    usage.record('echo', false);
    await usage.close();
    const rows = await m.db.all<{ tool: string; day: string; calls: number; errors: number }>('SELECT tool, day, calls, errors FROM tool_usage ORDER BY day, tool');
    expect(rows).toEqual([
      { tool: 'base64', day: '2026-03-01', calls: 1, errors: 0 },
      { tool: 'echo', day: '2026-03-01', calls: 2, errors: 1 },
      { tool: 'echo', day: '2026-03-02', calls: 2, errors: 1 },
    ]);
  });
});
