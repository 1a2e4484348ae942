// XP for memory activity, off the request path: memory writes announce themselves on the bus; this worker
// awards first_memory and memory_day (once per UTC day) to the owner. The award cache makes repeats free.
import type { Worker, WorkerContext } from '../../src/workers.js';
import { award, utcDay } from './award.js';

export function createXpWorkers(): Worker[] {
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const run = (ctx: WorkerContext, ownerId: string) => {
    const p = award(ctx, ownerId, [{ rule: 'first_memory' }, { rule: 'memory_day', ref: utcDay(ctx.clock.now()) }])
      .catch((err: unknown) => ctx.log.warn({ err }, 'memory XP award failed'))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  return [
    {
      name: 'xp-memory',
      start(ctx) {
        ctx.services.bus.on('memory:changed', (e) => {
          if (!stopped && e.ownerId) run(ctx, e.ownerId);
        });
      },
      async stop() {
        stopped = true;
        await Promise.all([...inFlight]);
      },
    },
  ];
}

