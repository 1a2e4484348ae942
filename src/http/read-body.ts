// Reads a request body up to a byte cap; null when the cap is exceeded (the caller answers 413).
import type { IncomingMessage } from 'node:http';
import { ContentBuilder, type Content } from '../blobs/content.js';

/** Feeds the body's chunks to `take`; false when the body (declared or sent) is over the cap. */
function readChunks(req: IncomingMessage, maxBytes: number, take: (chunk: Buffer) => void): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      resolve(false);
      return;
    }
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBytes) take(c);
    });
    req.on('end', () => resolve(size <= maxBytes));
    req.on('error', reject);
  });
}

/** An upload body, hashed as it arrives and kept in its chunks (blobs/content.ts). */
export async function readContent(req: IncomingMessage, maxBytes: number): Promise<Content | null> {
  const content = new ContentBuilder();
  return (await readChunks(req, maxBytes, (c) => content.add(c))) ? content.done() : null;
}

/** The body as UTF-8 text. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  if (!(await readChunks(req, maxBytes, (c) => chunks.push(c)))) return null;
  return (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
}
