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

/** Fewer than 12 digits in all cannot hold a card number: most texts skip the pattern's scan. */
function mayHoldCardNumber(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++digits >= 12) return true;
  }
  return false;
}

/** Card numbers in a text (12–19 digits passing Luhn, spaces or dashes allowed) with the middle masked. */
export function maskCardNumbers(text: string): string {
  if (!mayHoldCardNumber(text)) return text;
  return text.replace(/(?<!\d)\d(?:[ -]?\d){11,18}(?!\d)/g, (m) => (luhn(m.replace(/\D/g, '')) ? maskDigits(m) : m));
}

/**
 * The same for every string inside a JSON value. What holds no card number is returned as it is (not copied), so
 * the usual message costs a walk and no allocation; what does is rebuilt along the path to it.
 */
export function maskCardNumbersDeep(v: unknown): unknown {
  if (typeof v === 'string') return maskCardNumbers(v);
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = maskCardNumbersDeep(v[i]);
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  if (v && typeof v === 'object') {
    let out: Record<string, unknown> | undefined;
    for (const [k, x] of Object.entries(v)) {
      const m = maskCardNumbersDeep(x);
      // Defined, not assigned: a "__proto__" key read from JSON stays an own field.
      if (m !== x) Object.defineProperty((out ??= { ...v }), k, { value: m, writable: true, enumerable: true, configurable: true });
    }
    return out ?? v;
  }
  return v;
}
