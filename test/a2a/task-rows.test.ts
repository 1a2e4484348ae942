// Task rows written at once share the writer's commits; every caller still learns the fate of its own row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/a2a/ids.js';
import { insertTask } from '../../src/store/a2a-tasks.js';
import type { SqliteDb } from '../../src/store/sqlite.js';
import { migratedDb, type MigratedDb } from '../helpers/migrated-db.js';

let store: MigratedDb;
let db: SqliteDb;
beforeAll(async () => {
  store = await migratedDb();
  db = store.db;
});
afterAll(async () => store.remove());

const row = (id = uuidv7()) => ({
  id,
  context_id: uuidv7(),
  agent_id: null,
  state: 'completed',
  status: '{}',
  history: '[]',
  artifacts: '[]',
  waiting_kind: null,
  waiting_ref: null,
  created_at: 1,
  updated_at: 1,
});

describe('A2A task rows', () => {
  it('writes concurrent rows together, and a bad row fails alone', async () => {
    const dup = uuidv7();
    await insertTask(db, row(dup));
    const rows = Array.from({ length: 30 }, () => row());
    const results = await Promise.allSettled([...rows.map((r) => insertTask(db, r)), insertTask(db, row(dup))]);
    expect(results.slice(0, 30).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(results[30].status).toBe('rejected');
    expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM a2a_tasks'))!.n).toBe(31);
  });

  it('uuidv7 ids are time-ordered and random', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(a < b).toBe(true);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidv7(1)).not.toBe(uuidv7(1));
  });
});
