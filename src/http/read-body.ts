// Reads a request body up to a byte cap; null when the cap is exceeded (the caller answers 413).
import type { IncomingMessage } from 'node:http';
import { ContentBuilder, type Content } from '../blobs/content.js';

/** An upload body, hashed as it arrives and kept in its chunks (blobs/content.ts). */
export function readContent(req: IncomingMessage, maxBytes: number): Promise<Content | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      resolve(null);
      return;
    }
    const content = new ContentBuilder();
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      if (content.size + c.length > maxBytes) over = true;
      else content.add(c);
    });
    req.on('end', () => resolve(over ? null : content.done()));
    req.on('error', reject);
  });
}

export function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > maxBytes) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(over ? null : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

/** The body as UTF-8 text. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string | null> {
  const bytes = await readBytes(req, maxBytes);
  return bytes === null ? null : bytes.toString('utf8');
}
