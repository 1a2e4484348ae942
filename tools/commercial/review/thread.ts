// The thread reviews run on: ESLint and the tree-sitter rules take tens of milliseconds for a few hundred lines and
// can take a second for the largest input, which on the event loop would stall every other request meanwhile.
import { serveThread } from '../../../src/threads.js';
import { review, type ReviewInput } from './engine.js';

serveThread((req: ReviewInput) => review(req));
