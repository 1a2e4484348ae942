// review off the event loop, on a thread shared by every gateway of the process (src/threads.ts sharedThread).
import { sharedThread, siblingModule } from '../../../src/threads.js';
import type { review, ReviewInput } from './engine.js';

export const reviewOffLoop = sharedThread<ReviewInput, Awaited<ReturnType<typeof review>>>(siblingModule(import.meta.url, 'thread'));
