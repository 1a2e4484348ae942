// Prices are decimal dollar strings ("0.001"); x402 amounts are integers in the token's atomic units.

/** Exact conversion of a decimal USD string to atomic units (no floating point). */
export function toAtomicUnits(usd: string, decimals: number): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(usd.trim());
  if (!m) throw new Error(`invalid price: ${usd}`);
  const frac = (m[2] ?? '').padEnd(decimals, '0');
  if (frac.length > decimals && /[1-9]/.test(frac.slice(decimals))) throw new Error(`price ${usd} is finer than ${decimals} decimals`);
  return (BigInt(m[1]) * 10n ** BigInt(decimals) + BigInt(frac.slice(0, decimals) || '0')).toString();
}

/** Finer than any price or token the gateway uses, so sums stay exact. */
const SUM_DECIMALS = 18;

/** The exact sum of decimal USD strings, as a decimal USD string ("0.001" + "0.002" → "0.003"). */
export function sumUsd(prices: string[]): string {
  const total = prices.reduce((n, p) => n + BigInt(toAtomicUnits(p, SUM_DECIMALS)), 0n);
  const scale = 10n ** BigInt(SUM_DECIMALS);
  const frac = (total % scale).toString().padStart(SUM_DECIMALS, '0').replace(/0+$/, '');
  return frac ? `${total / scale}.${frac}` : String(total / scale);
}
