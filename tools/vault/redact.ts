// A hostile API may echo the injected credential back. Every form of it we can predict is replaced before the
// response reaches the caller's prompt: raw, in any letter case; base64 and base64url, at any alignment inside a
// longer encoded run; hex; URL-encoded (either case of the escapes); JSON-escaped (with and without `\/`); and,
// in binary bodies, UTF-16.
const MARK = '[redacted]';
/** An aligned slice of base64 shorter than this could match by chance in any encoded body. */
const MIN_BASE64_RUN = 8;

/** The base64 a secret leaves inside a longer encoding at each of the three byte alignments (edges excluded). */
function base64Runs(bytes: Buffer): string[] {
  const runs: string[] = [];
  for (let skip = 0; skip < 3; skip++) {
    const aligned = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    const run = aligned.toString('base64');
    if (run.length >= MIN_BASE64_RUN) runs.push(run, aligned.toString('base64url'));
  }
  return runs;
}

export function credentialForms(secrets: string[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    const bytes = Buffer.from(s);
    forms.add(s);
    forms.add(bytes.toString('base64'));
    forms.add(bytes.toString('base64').replace(/=+$/, ''));
    forms.add(bytes.toString('base64url'));
    for (const run of base64Runs(bytes)) forms.add(run);
    forms.add(bytes.toString('hex'));
    const encoded = encodeURIComponent(s);
    forms.add(encoded);
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
    const json = JSON.stringify(s).slice(1, -1);
    forms.add(json);
    forms.add(json.replaceAll('/', '\\/'));
  }
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One pass over the text for all forms, letters in either case (a lower-cased copy of a key is still most of it). */
function formsPattern(forms: string[]): RegExp {
  return new RegExp(forms.map(escapeRegExp).join('|'), 'gi');
}

export function redactText(text: string, forms: string[]): { text: string; hits: number } {
  if (forms.length === 0) return { text, hits: 0 };
  let hits = 0;
  const out = text.replace(formsPattern(forms), () => (hits++, MARK));
  return { text: out, hits };
}

/** Redacts bytes through their latin1 view, so binary bodies are covered too, UTF-16 copies included. */
export function redactBytes(bytes: Buffer, forms: string[]): { bytes: Buffer; hits: number } {
  const latin = forms.flatMap((f) => [Buffer.from(f, 'utf8').toString('latin1'), Buffer.from(f, 'utf16le').toString('latin1')]);
  const r = redactText(bytes.toString('latin1'), latin.sort((a, b) => b.length - a.length));
  return { bytes: r.hits ? Buffer.from(r.text, 'latin1') : bytes, hits: r.hits };
}
