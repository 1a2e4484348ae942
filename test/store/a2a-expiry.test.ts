// A2A tasks left waiting for the client (issue 42), on both stores: a task in input-required or auth-required that
// waits for no job or handoff ends as failed once GATEWAY_A2A_INTERRUPTED_HOURS have passed, at the time its wait ran
// out, with a reply saying why (valid JSON whatever context id the client chose); others are untouched; sweeps that
// run at once end each task once; and a sweep works through thousands of rows in bounded batches.
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/clock.js';
import { BATCH, BatchSize, expireA2aTasks, sweep } from '../../src/retention.js';
import type { Db } from '../../src/store/db.js';
import { onEachStore } from '../helpers/each-store.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 4, 1, 12, 0, 0, 123);

interface Row {
  id: string;
  context_id: string;
  state: string;
  status: string;
  history: string;
  updated_at: number;
  waiting_ref: string | null;
}

const userMessage = (taskId: string, contextId: string, text = 'convert 255 to base 2') => ({
  kind: 'message',
  messageId: `m-${taskId}`,
  role: 'user',
  parts: [{ kind: 'text', text }],
  taskId,
  contextId,
});

async function insert(db: Db, t: { id: string; state: string; at: number; context?: string; history?: unknown[]; waiting?: string; text?: string }): Promise<void> {
  const context = t.context ?? `ctx-${t.id}`;
  const history = t.history ?? [userMessage(t.id, context, t.text)];
  await db.run(
    `INSERT INTO a2a_tasks (id, context_id, state, status, history, artifacts, waiting_kind, waiting_ref, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, '[]', ?, ?, ?, ?)`,
    [t.id, context, t.state, JSON.stringify({ state: t.state, timestamp: isoTime(t.at) }), JSON.stringify(history), t.waiting ? 'handoff' : null, t.waiting ?? null, t.at, t.at],
  );
}

const row = (db: Db, id: string) => db.get<Row>('SELECT id, context_id, state, status, history, updated_at, waiting_ref FROM a2a_tasks WHERE id = ?', [id]);

onEachStore('A2A tasks left waiting for the client', (db) => {
  it('end as failed when their wait runs out, with a reply saying why; nothing else is touched', async () => {
    const weird = 'ctx "quoted" \\ back\nslash é ' + "'single'";
    await insert(db(), { id: 'auth-old', state: 'auth-required', at: NOW - HOUR - 1 });
    await insert(db(), { id: 'input-old', state: 'input-required', at: NOW - 5 * HOUR });
    await insert(db(), { id: 'auth-young', state: 'auth-required', at: NOW - HOUR + 1 });
    await insert(db(), { id: 'handoff-old', state: 'input-required', at: NOW - 30 * DAY, waiting: 'h-1' });
    // Left working or submitted by a process that stopped (no job or handoff will finish it): it expires too;
    // working for a job or handoff, or working for less than the hour, it is left alone.
    await insert(db(), { id: 'working-old', state: 'working', at: NOW - 3 * HOUR });
    await insert(db(), { id: 'submitted-old', state: 'submitted', at: NOW - 2 * HOUR });
    await insert(db(), { id: 'working-young', state: 'working', at: NOW - HOUR + 1 });
    await insert(db(), { id: 'working-handoff', state: 'working', at: NOW - 30 * DAY, waiting: 'h-2' });
    await insert(db(), { id: 'done-old', state: 'completed', at: NOW - 30 * DAY });
    await insert(db(), { id: 'weird-old', state: 'auth-required', at: NOW - 2 * HOUR, context: weird, history: [] });

    expect(await expireA2aTasks(db(), NOW, HOUR)).toBe(5);
    // A second sweep finds nothing more.
    expect(await expireA2aTasks(db(), NOW, HOUR)).toBe(0);

    const auth = (await row(db(), 'auth-old'))!;
    expect(auth.state).toBe('failed');
    // It ended when its hour ran out, not when the sweep saw it.
    expect(Number(auth.updated_at)).toBe(NOW - 1);
    const status = JSON.parse(auth.status);
    expect(status).toMatchObject({ state: 'failed', timestamp: isoTime(NOW - 1) });
    expect(status.message).toMatchObject({ kind: 'message', role: 'agent', taskId: 'auth-old', contextId: 'ctx-auth-old', messageId: 'expired-auth-old' });
    expect(status.message.parts[0].text).toMatch(/waited 1 h for credentials or payment and has expired.*X-API-Key/);
    expect(status.message.parts[1]).toEqual({ kind: 'data', data: { reason: 'expired', state: 'auth-required', waitedSeconds: 3600 } });
    const history = JSON.parse(auth.history);
    expect(history).toEqual([userMessage('auth-old', 'ctx-auth-old'), status.message]);

    const input = (await row(db(), 'input-old'))!;
    expect(input.state).toBe('failed');
    expect(Number(input.updated_at)).toBe(NOW - 4 * HOUR);
    expect(JSON.parse(input.status).message.parts[0].text).toMatch(/waited 1 h for the input it asked for/);

    const odd = (await row(db(), 'weird-old'))!;
    expect(JSON.parse(odd.status).message.contextId).toBe(weird);
    expect(JSON.parse(odd.history)).toEqual([JSON.parse(odd.status).message]);

    for (const id of ['working-old', 'submitted-old']) {
      const stopped = (await row(db(), id))!;
      expect(stopped.state, id).toBe('failed');
      const message = JSON.parse(stopped.status).message;
      expect(message.parts[0].text).toMatch(/work stopped without an answer .* has expired after 1 h/);
      expect(message.parts[1].data.state).toBe(id === 'working-old' ? 'working' : 'submitted');
    }
    expect(Number((await row(db(), 'working-old'))!.updated_at)).toBe(NOW - 2 * HOUR);

    for (const [id, state] of [['auth-young', 'auth-required'], ['handoff-old', 'input-required'], ['working-young', 'working'], ['working-handoff', 'working'], ['done-old', 'completed']]) {
      expect((await row(db(), id))!.state, id).toBe(state);
    }
    expect(await expireA2aTasks(db(), NOW + 2, HOUR)).toBe(2);
    expect((await row(db(), 'auth-young'))!.state).toBe('failed');
    expect((await row(db(), 'working-young'))!.state).toBe('failed');
  });

  it('a task continued before the sweep is not ended; sweeps running at once end each task once', async () => {
    await insert(db(), { id: 'continued', state: 'auth-required', at: NOW - 2 * HOUR });
    // The client sent its credentials: the task moved on (the guard sees its new state and time).
    await db().run("UPDATE a2a_tasks SET state = 'completed', updated_at = ? WHERE id = 'continued'", [NOW]);
    const ids = Array.from({ length: 300 }, (_, i) => `many-${String(i).padStart(3, '0')}`);
    for (const id of ids) await insert(db(), { id, state: 'auth-required', at: NOW - 2 * HOUR - Number(id.slice(5)) });
    const counts = await Promise.all(Array.from({ length: 4 }, () => expireA2aTasks(db(), NOW, HOUR)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(300);
    expect((await row(db(), 'continued'))!.state).toBe('completed');
    const rows = await db().all<Row>("SELECT history, state FROM a2a_tasks WHERE id LIKE 'many-%'");
    expect(rows).toHaveLength(300);
    for (const r of rows) {
      expect(r.state).toBe('failed');
      // One expiry message each: none was appended twice.
      expect((JSON.parse(r.history) as { messageId: string }[]).filter((m) => m.messageId.startsWith('expired-'))).toHaveLength(1);
    }
  });

  it('sweeps thousands of rows in bounded batches: expired and finished tasks past retention go in one sweep', async () => {
    const filler = 'x'.repeat(1000);
    const stmts = [];
    for (let i = 0; i < 3000; i++) {
      const id = `burst-${i}`;
      const state = i % 3 === 0 ? 'auth-required' : 'completed';
      const at = NOW - 8 * DAY - i;
      stmts.push({
        sql: `INSERT INTO a2a_tasks (id, context_id, state, status, history, created_at, updated_at) VALUES (?, 'ctx-burst', ?, '{}', ?, ?, ?)`,
        params: [id, state, JSON.stringify([userMessage(id, 'ctx-burst', filler)]), at, at],
      });
    }
    for (let i = 0; i < stmts.length; i += 500) await db().batch(stmts.slice(i, i + 500));
    const batch = new BatchSize();
    const sizes: number[] = [];
    const next = batch.next.bind(batch);
    const times: string[] = [];
    batch.next = (ms) => (sizes.push(batch.size), times.push(`${batch.size}:${ms.toFixed(1)}`), next(ms));
    const t0 = performance.now();
    const result = await sweep(db(), NOW, { retention: { a2a_tasks: 7, jobs: 30, webhook_deliveries: 30, notifications: 90, handoffs: 30, template_runs: 31 }, a2a: { interruptedMs: HOUR, anonymousSendsPerMinute: 60, anonymousMaxMessageBytes: 16384, anonymousRetainMs: 7 * DAY } }, undefined, batch);
    const took = performance.now() - t0;
    // The expired ones ended 8 days less an hour ago: past the 7 days, so they go in the same sweep.
    expect(result.expired).toBe(1000);
    expect(result.deleted.a2a_tasks).toBeGreaterThanOrEqual(3000);
    expect(Number((await db().get<{ n: number }>("SELECT COUNT(*) AS n FROM a2a_tasks WHERE context_id = 'ctx-burst'"))!.n)).toBe(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BATCH.max);
    expect(sizes.length).toBeGreaterThan(4);
    // No statement held the writer for long (generous for a loaded CI machine; typically a few ms).
    expect(batch.longestMs).toBeLessThan(1000);
    console.log(`[${db().dialect}] swept 3,000 tasks (1 KB each) in ${took.toFixed(0)} ms: ${sizes.length} statements, sizes ${[...new Set(sizes)].join('/')}, longest ${batch.longestMs.toFixed(1)} ms; ${times.join(" ")}`);
  });
});

onEachStore('A2A tasks of callers without credentials', (db) => {
  it('are deleted an hour after they finish; an agent\'s tasks are kept for the days of their retention', async () => {
    await insert(db(), { id: 'anon-done-old', state: 'completed', at: NOW - HOUR - 1 });
    await insert(db(), { id: 'anon-done-young', state: 'completed', at: NOW - HOUR + 1000 });
    await insert(db(), { id: 'anon-open', state: 'working', at: NOW - HOUR + 1000, waiting: 'h-3' });
    await insert(db(), { id: 'owned-done', state: 'completed', at: NOW - 3 * DAY });
    await db().run("UPDATE a2a_tasks SET agent_id = ? WHERE id = 'owned-done'", [await someAgent(db())]);
    const config = { retention: { a2a_tasks: 7, jobs: 30, webhook_deliveries: 30, notifications: 90, handoffs: 30, template_runs: 31 }, a2a: { interruptedMs: HOUR, anonymousSendsPerMinute: 60, anonymousMaxMessageBytes: 16384, anonymousRetainMs: HOUR } };
    const result = await sweep(db(), NOW, config);
    expect(result.deleted.a2a_tasks).toBe(1);
    expect(await row(db(), 'anon-done-old')).toBeUndefined();
    for (const id of ['anon-done-young', 'anon-open', 'owned-done']) expect(await row(db(), id), id).toBeDefined();
  });
});

/** An agent row for a task to belong to. */
async function someAgent(db: Db): Promise<string> {
  const id = 'agent-of-owned-task';
  await db.run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES (?, 'owned-task-agent', 'x', ?)", [id, NOW]);
  return id;
}

describe('batch size', () => {
  it('doubles while statements are quick, halves when one is slow, within its bounds', () => {
    const b = new BatchSize();
    expect(b.size).toBe(BATCH.first);
    for (let i = 0; i < 10; i++) b.next(1);
    expect(b.size).toBe(BATCH.max);
    b.next(BATCH.targetMs + 1);
    expect(b.size).toBe(BATCH.max / 2);
    for (let i = 0; i < 20; i++) b.next(10 * BATCH.targetMs);
    expect(b.size).toBe(BATCH.min);
    b.next(BATCH.targetMs / 2); // in between: kept
    expect(b.size).toBe(BATCH.min);
  });
});
