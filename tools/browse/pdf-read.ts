// PDF text through unpdf (a pure-JS build of pdf.js, so no native code): the pages' text, merged. Runs on the PDF
// thread (pdf-thread.ts): a long PDF takes hundreds of milliseconds of CPU.
export interface PdfText {
  text: string;
  pages: number;
  title: string | null;
}

/** The text of a PDF, or null when it cannot be read (damaged or encrypted). */
export async function readPdf(bytes: Uint8Array): Promise<PdfText | null> {
  try {
    const { extractText, getDocumentProxy, getMeta } = await import('unpdf'); // loaded on the first PDF only
    const doc = await getDocumentProxy(bytes);
    const { text, totalPages } = await extractText(doc, { mergePages: true });
    const meta = await getMeta(doc).catch(() => undefined);
    const title = (meta?.info as { Title?: unknown } | undefined)?.Title;
    return { text: text.trim(), pages: totalPages, title: typeof title === 'string' && title.trim() ? title.trim() : null };
  } catch {
    return null;
  }
}
