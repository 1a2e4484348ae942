// HTML extraction on a thread of its own (extract-thread.ts), started with the first page and shared by every
// gateway of the process (src/threads.ts sharedThread).
import { validationError } from '../../src/errors.js';
import { sharedThread, siblingModule } from '../../src/threads.js';
import type { Extracted, Format } from './extract.js';
import type { ExtractReply, ExtractRequest } from './extract-thread.js';

const extractor = sharedThread<ExtractRequest, ExtractReply>(siblingModule(import.meta.url, 'extract-thread'));

/** extractHtml, off the event loop. */
export async function extractHtmlOffLoop(source: string, url: string, format: Format, selector?: string): Promise<Extracted> {
  const reply = await extractor([source, url, format, selector]);
  if ('invalid' in reply) throw validationError(reply.invalid);
  return reply.ok;
}
