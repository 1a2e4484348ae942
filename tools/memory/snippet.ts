// A short window of text around the first query word it contains, with the matches marked «like this».
const WINDOW = 120;

export function snippet(text: string, words: string[]): string {
  const lower = text.toLowerCase();
  const stems = words.map((w) => w.toLowerCase().slice(0, Math.max(3, w.length - 2))).filter(Boolean);
  let at = -1;
  for (const s of stems) {
    const i = lower.indexOf(s);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  const start = at === -1 ? 0 : Math.max(0, at - WINDOW / 3);
  let out = text.slice(start, start + WINDOW);
  for (const s of stems) out = out.replace(new RegExp(`(\\p{L}*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\p{L}*)`, 'giu'), '«$1»');
  return `${start > 0 ? '…' : ''}${out}${start + WINDOW < text.length ? '…' : ''}`;
}
