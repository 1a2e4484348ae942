// Text hygiene for the conversational surfaces: a payment card number a client typed is never echoed or
// stored whole (first 6 and last 4 digits kept, as the card_brand calculator shows it).

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1 && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0;
}

/** First 6 and last 4 digits kept, the rest as •. */
export function maskDigits(raw: string): string {
  const d = raw.replace(/\D/g, '');
  return d.length < 10 ? '•'.repeat(d.length) : `${d.slice(0, 6)}${'•'.repeat(d.length - 10)}${d.slice(-4)}`;
}

/** Card numbers in a text (12–19 digits passing Luhn, spaces or dashes allowed) with the middle masked. */
export function maskCardNumbers(text: string): string {
  return text.replace(/(?<!\d)\d(?:[ -]?\d){11,18}(?!\d)/g, (m) => (luhn(m.replace(/\D/g, '')) ? maskDigits(m) : m));
}

/** The same for every string inside a JSON value. */
export function maskCardNumbersDeep(v: unknown): unknown {
  if (typeof v === 'string') return maskCardNumbers(v);
  if (Array.isArray(v)) return v.map(maskCardNumbersDeep);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskCardNumbersDeep(x)]));
  return v;
}
