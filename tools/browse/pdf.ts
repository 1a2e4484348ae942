// PDF text for browse and extraction, read on a thread shared by the process (pdf-thread.ts, pdf-read.ts). unpdf is
// an optional package (src/engines.ts), checked here before the thread: without it a PDF is a 503
// engine_not_installed, where the thread could only answer "unreadable".
import { requireEngine } from '../../src/engines.js';
import { GatewayError } from '../../src/errors.js';
import { sharedThread, siblingModule } from '../../src/threads.js';
import type { PdfText } from './pdf-read.js';

const onThread = sharedThread<Uint8Array, PdfText | null>(siblingModule(import.meta.url, 'pdf-thread'));

export async function pdfText(bytes: Buffer): Promise<PdfText> {
  requireEngine('pdf');
  const read = await onThread(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (!read) throw new GatewayError('unsupported_media_type', 'The PDF could not be read (damaged or encrypted).', { extra: { reason: 'unreadable_pdf' } });
  return read;
}
