// A tool's result as A2A parts: JSON as a data part; a file or image/audio bytes as a file part (base64 bytes,
// its media type); text blocks as text parts; an embedded resource as a file part named by its URI.
import { isFileResult, isContentResult, resourceJson, type ContentBlock } from '../registry/content-result.js';
import { isPlainObject as isObject } from '../plain-object.js';
import type { Part } from './types.js';

const asData = (v: unknown): Record<string, unknown> => (isObject(v) ? v : { value: v ?? null });

function blockPart(b: ContentBlock): Part {
  switch (b.type) {
    case 'text':
      return { kind: 'text', text: b.text };
    case 'image':
    case 'audio':
      return { kind: 'file', file: { bytes: b.bytes.toString('base64'), mimeType: b.mimeType } };
    case 'resource': {
      const r = resourceJson(b.resource);
      // A file part carries bytes or a URI, not both: the bytes, named by the resource's URI.
      return { kind: 'file', file: { bytes: 'blob' in r ? r.blob : Buffer.from(r.text).toString('base64'), name: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}) } };
    }
  }
}

export function resultParts(result: unknown): Part[] {
  if (isFileResult(result)) return [{ kind: 'file', file: { bytes: result.bytes.toString('base64'), mimeType: result.contentType, name: result.filename } }];
  if (!isContentResult(result)) return [{ kind: 'data', data: asData(result) }];
  return [...result.content.map(blockPart), ...(result.data ? [{ kind: 'data' as const, data: result.data }] : [])];
}
