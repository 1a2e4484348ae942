// Results that are more than JSON: text, images, audio and embedded resources, in the order a tool gives them.
// Transport-neutral (bytes are Buffers, never base64): MCP renders content blocks, REST and A2A render JSON or
// parts. A FileResult (types.ts) is the single-attachment case; this is the general one.
import type { FileResult } from './types.js';

/** An embedded resource: text, or bytes (a blob). */
export type EmbeddedResource = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; bytes: Buffer };

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; bytes: Buffer; mimeType: string }
  | { type: 'audio'; bytes: Buffer; mimeType: string }
  | { type: 'resource'; resource: EmbeddedResource };

export interface ContentResult {
  kind: 'content';
  content: ContentBlock[];
  /** The JSON form of the result, when it has one (MCP structuredContent, REST's body). */
  data?: Record<string, unknown>;
}

export const contentResult = (content: ContentBlock[], data?: Record<string, unknown>): ContentResult => {
  if (content.length === 0) throw new Error('a content result needs at least one block');
  return { kind: 'content', content, ...(data ? { data } : {}) };
};

export const isContentResult = (v: unknown): v is ContentResult =>
  typeof v === 'object' && v !== null && (v as ContentResult).kind === 'content' && Array.isArray((v as ContentResult).content);

export const isFileResult = (v: unknown): v is FileResult =>
  typeof v === 'object' && v !== null && (v as FileResult).kind === 'file' && Buffer.isBuffer((v as FileResult).bytes);

const mediaType = (contentType: string): string => contentType.split(';')[0].trim().toLowerCase();

/** Text a person can read as-is: text/* and JSON, when the bytes are valid UTF-8. */
export function textOf(bytes: Buffer, contentType: string): string | undefined {
  const t = mediaType(contentType);
  if (!t.startsWith('text/') && t !== 'application/json' && !t.endsWith('+json') && t !== 'application/x-ndjson') return undefined;
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/** A file as one block: an image is shown as one, audio played as audio, anything else embedded as a resource. */
export function fileBlock(f: FileResult, uri: string): ContentBlock {
  const t = mediaType(f.contentType);
  if (t.startsWith('image/')) return { type: 'image', bytes: f.bytes, mimeType: t };
  if (t.startsWith('audio/')) return { type: 'audio', bytes: f.bytes, mimeType: t };
  const text = textOf(f.bytes, f.contentType);
  return { type: 'resource', resource: text !== undefined ? { uri, mimeType: f.contentType, text } : { uri, mimeType: f.contentType, bytes: f.bytes } };
}

/** A block as JSON, which is also MCP's wire form of it: bytes as base64. */
export type BlockJson =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string } };

export const resourceJson = (r: EmbeddedResource): { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string } => {
  const head = { uri: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}) };
  return 'bytes' in r ? { ...head, blob: r.bytes.toString('base64') } : { ...head, text: r.text };
};

export function blockJson(b: ContentBlock): BlockJson {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'image':
      return { type: 'image', data: b.bytes.toString('base64'), mimeType: b.mimeType };
    case 'audio':
      return { type: 'audio', data: b.bytes.toString('base64'), mimeType: b.mimeType };
    case 'resource':
      return { type: 'resource', resource: resourceJson(b.resource) };
  }
}

/** A content result as one JSON value: its data with the blocks beside it. */
export const contentJson = (r: ContentResult): Record<string, unknown> => ({ ...r.data, content: r.content.map(blockJson) });
