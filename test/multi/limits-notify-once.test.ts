// A once-notification (a toggled follow or reaction) under 50 concurrent adds of the same entry, straight on each
// store (issue 42): exactly one is added, round after round. On PostgreSQL the pool's connections run the adds at
// once, which the end-to-end toggle (test/multi/limits-once.test.ts) rarely lines up; before the adds were keyed by
// the agent, a few rounds in forty added two or more.
import { expect, it } from 'vitest';
import { addNotificationOnce } from '../../tools/notifications/store.js';
import { onEachStore } from '../helpers/each-store.js';
import { BURST } from './limits-cluster.js';

const ROUNDS = 20;

onEachStore('once-notifications under concurrent adds', (db) => {
  it(`adds exactly one of ${BURST} concurrent twins, ${ROUNDS} rounds running`, async () => {
    await db().run("INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('ag_once', 'once-agent', 'h_once', 1)");
    for (let round = 0; round < ROUNDS; round++) {
      const entry = { kind: 'reaction', title: 'liked', data: { from: 'fan', round } };
      const ids = await Promise.all(Array.from({ length: BURST }, () => addNotificationOnce(db(), 'ag_once', entry, 1000 + round)));
      expect(ids.filter((id) => id !== null)).toHaveLength(1);
    }
  });
});
