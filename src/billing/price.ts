// Prices are decimal dollar strings ("0.001"); x402 amounts are integers in the token's atomic units.

/** Exact conversion of a decimal USD string to atomic units (no floating point). */
export function toAtomicUnits(usd: string, decimals: number): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(usd.trim());
  if (!m) throw new Error(`invalid price: ${usd}`);
  const frac = (m[2] ?? '').padEnd(decimals, '0');
  if (frac.length > decimals && /[1-9]/.test(frac.slice(decimals))) throw new Error(`price ${usd} is finer than ${decimals} decimals`);
  return (BigInt(m[1]) * 10n ** BigInt(decimals) + BigInt(frac.slice(0, decimals) || '0')).toString();
}
