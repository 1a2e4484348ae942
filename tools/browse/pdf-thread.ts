// The thread PDFs are read on, off the event loop (as HTML extraction is: extract-thread.ts).
import { serveThread } from '../../src/threads.js';
import { readPdf } from './pdf-read.js';

serveThread((bytes: Uint8Array) => readPdf(bytes));
