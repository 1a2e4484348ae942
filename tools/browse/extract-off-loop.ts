// HTML extraction on a thread of its own (extract-thread.ts), started with the first page and shared by every
// gateway of the process; it keeps the process alive only while a page is being extracted.
import { validationError } from '../../src/errors.js';
import { siblingModule, ThreadClient } from '../../src/threads.js';
import type { Extracted, Format } from './extract.js';
import type { ExtractReply, ExtractRequest } from './extract-thread.js';

const THREAD = siblingModule(import.meta.url, 'extract-thread');

let thread: Promise<ThreadClient<ExtractRequest, ExtractReply>> | null = null;

async function extractor(): Promise<ThreadClient<ExtractRequest, ExtractReply>> {
  const t = await (thread ??= ThreadClient.start<ExtractRequest, ExtractReply>(THREAD)).catch((err: unknown) => {
    thread = null;
    throw err;
  });
  if (t.alive) return t;
  thread = null; // it stopped (a crash on some page): the next page gets a fresh one
  return extractor();
}

/** extractHtml, off the event loop. */
export async function extractHtmlOffLoop(source: string, url: string, format: Format, selector?: string): Promise<Extracted> {
  const reply = await (await extractor()).call([source, url, format, selector]);
  if ('invalid' in reply) throw validationError(reply.invalid);
  return reply.ok;
}
