// runEngine off the event loop, on one thread started with the first extraction and shared by every gateway of
// the process; it keeps the process alive only while an extraction runs (the pattern of browse/extract-off-loop.ts).
import { siblingModule, ThreadClient } from '../../../src/threads.js';
import type { EngineInput, EngineOutput } from './engine.js';

const THREAD = siblingModule(import.meta.url, 'thread');

let thread: Promise<ThreadClient<EngineInput, EngineOutput>> | null = null;

async function engine(): Promise<ThreadClient<EngineInput, EngineOutput>> {
  const t = await (thread ??= ThreadClient.start<EngineInput, EngineOutput>(THREAD)).catch((err: unknown) => {
    thread = null;
    throw err;
  });
  if (t.alive) return t;
  thread = null; // it stopped (a crash on some input): the next extraction gets a fresh one
  return engine();
}

export async function runEngineOffLoop(input: EngineInput): Promise<EngineOutput> {
  return (await engine()).call(input);
}
