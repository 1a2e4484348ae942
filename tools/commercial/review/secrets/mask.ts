// A secret as a finding may show it: its first characters when it is long enough that they give nothing away (a
// provider's prefix, AKIA or ghp_), stars for at most 12 more, and its length. Never the secret itself.
export function maskSecret(secret: string): string {
  const chars = [...secret];
  const keep = chars.length >= 20 ? 4 : chars.length >= 12 ? 2 : 0;
  const hidden = chars.length - keep;
  const shown = chars.slice(0, keep).join('').replace(/\s/g, ' ');
  return `${shown}${'*'.repeat(Math.min(hidden, 12))}${hidden > 12 ? '…' : ''} (${chars.length} characters)`;
}
