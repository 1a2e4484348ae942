// What a fetched page is and how its bytes read as text, for browse and for the commercial extraction: the kind
// from its media type (or, without a usable one, its first bytes), and its charset from the header or the page.

export type Kind = 'html' | 'text' | 'json' | 'pdf';

export const ACCEPT = 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,application/pdf;q=0.8,text/*;q=0.5';

export function kindOf(mime: string, body: Buffer): Kind | undefined {
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (mime === 'application/pdf') return 'pdf';
  if (mime.startsWith('text/')) return 'text';
  if (mime === '' || mime === 'application/octet-stream') {
    // No usable type: look at the first bytes, as a browser would for these few cases.
    const head = body.subarray(0, 512).toString('latin1');
    if (head.startsWith('%PDF-')) return 'pdf';
    if (/^\s*</.test(head) && /<html|<!doctype html|<body|<head/i.test(head)) return 'html';
  }
  return undefined;
}

const CHARSET = /charset\s*=\s*["']?([^"';\s/>]+)/i;

export function decode(body: Buffer, contentType: string, kind: Kind): string {
  // The header wins; an HTML page without one may name its charset in a <meta> of its first kilobyte.
  const charset = CHARSET.exec(contentType)?.[1] ?? (kind === 'html' ? CHARSET.exec(body.subarray(0, 1024).toString('latin1'))?.[1] : undefined);
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body); // an unknown label: UTF-8 is the web's default
  }
}
