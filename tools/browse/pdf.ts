// PDF text through unpdf (a pure-JS build of pdf.js, so no native code): the pages' text, merged.
import { GatewayError } from '../../src/errors.js';

export async function pdfText(bytes: Buffer): Promise<{ text: string; pages: number; title: string | null }> {
  try {
    const { extractText, getDocumentProxy, getMeta } = await import('unpdf'); // loaded on the first PDF only
    const doc = await getDocumentProxy(new Uint8Array(bytes));
    const { text, totalPages } = await extractText(doc, { mergePages: true });
    const meta = await getMeta(doc).catch(() => undefined);
    const title = (meta?.info as { Title?: unknown } | undefined)?.Title;
    return { text: text.trim(), pages: totalPages, title: typeof title === 'string' && title.trim() ? title.trim() : null };
  } catch {
    throw new GatewayError('unsupported_media_type', 'The PDF could not be read (damaged or encrypted).', { extra: { reason: 'unreadable_pdf' } });
  }
}
