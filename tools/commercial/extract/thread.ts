// The thread extractions run on: a DOM and the NLP take tens to hundreds of milliseconds of CPU for a long text,
// which on the event loop would stall every other request meanwhile (as browse's extract-thread.ts does for pages).
import { serveThread } from '../../../src/threads.js';
import { runEngine, type EngineInput, type EngineOutput } from './engine.js';

serveThread((req: EngineInput): EngineOutput => runEngine(req));
