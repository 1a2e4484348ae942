// The thread browse extracts HTML on: linkedom, Readability and Turndown take about 235 ms of CPU for a 60 KB
// article and 1.7 s for 1.2 MB, which on the event loop stalled every other request meanwhile. A selector the
// DOM refuses comes back as its validation issues, so the caller still answers 422.
import { GatewayError, type ValidationIssue } from '../../src/errors.js';
import { serveThread } from '../../src/threads.js';
import { extractHtml, type Extracted, type Format } from './extract.js';

export type ExtractRequest = [source: string, url: string, format: Format, selector: string | undefined];
export type ExtractReply = { ok: Extracted } | { invalid: ValidationIssue[] };

serveThread(([source, url, format, selector]: ExtractRequest): ExtractReply => {
  try {
    return { ok: extractHtml(source, url, format, selector) };
  } catch (err) {
    if (err instanceof GatewayError && err.detail) return { invalid: err.detail };
    throw err;
  }
});
