// runEngine off the event loop, on a thread shared by every gateway of the process (src/threads.ts sharedThread).
import { sharedThread, siblingModule } from '../../../src/threads.js';
import type { EngineInput, EngineOutput } from './engine.js';

export const runEngineOffLoop = sharedThread<EngineInput, EngineOutput>(siblingModule(import.meta.url, 'thread'));
