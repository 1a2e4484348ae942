// Country codes by English name ("germany" → "DE") from the ICU data Node ships (Intl.DisplayNames): how a question's
// "in Germany" is still read as a country when date-holidays, an optional package with its own list, is not
// installed, so business_days is asked for that country and says what to install instead of ignoring it.
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'QO', 'UN', 'XA', 'XB', 'ZZ']);
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

let names: Map<string, string> | undefined;

export function countryCodesFromIcu(): Map<string, string> {
  if (names) return names;
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  names = new Map();
  for (const a of LETTERS) {
    for (const b of LETTERS) {
      const code = a + b;
      const name = NOT_COUNTRIES.has(code) ? undefined : display.of(code);
      if (name) names.set(name.toLowerCase(), code);
    }
  }
  return names;
}
