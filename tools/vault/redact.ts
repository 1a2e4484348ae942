// A hostile API may echo the injected credential back. Every form of it we can predict (raw, base64,
// URL-encoded, the whole Authorization value) is replaced before the response reaches the caller's prompt.
const MARK = '[redacted]';

export function credentialForms(secrets: string[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    forms.add(s);
    forms.add(Buffer.from(s).toString('base64'));
    forms.add(Buffer.from(s).toString('base64').replace(/=+$/, ''));
    forms.add(Buffer.from(s).toString('base64url'));
    forms.add(encodeURIComponent(s));
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

export function redactText(text: string, forms: string[]): { text: string; hits: number } {
  let hits = 0;
  let out = text;
  for (const f of forms) {
    if (!out.includes(f)) continue;
    const parts = out.split(f);
    hits += parts.length - 1;
    out = parts.join(MARK);
  }
  return { text: out, hits };
}

/** Redacts bytes through their latin1 view, so binary bodies are covered too. */
export function redactBytes(bytes: Buffer, forms: string[]): { bytes: Buffer; hits: number } {
  const latin = forms.map((f) => Buffer.from(f, 'utf8').toString('latin1'));
  const r = redactText(bytes.toString('latin1'), latin);
  return { bytes: r.hits ? Buffer.from(r.text, 'latin1') : bytes, hits: r.hits };
}
