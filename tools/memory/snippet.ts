// A short window of text around the first query word it contains, with the words that contain a query word's
// stem marked «like this».
const WINDOW = 120;
const WORD = /[\p{L}\p{N}_]+/gu;

/** A snippet maker for one query: stems are worked out once, then each hit costs one pass over its window. */
export function snippetter(words: string[]): (text: string) => string {
  const stems = [...new Set(words.map((w) => w.toLowerCase().slice(0, Math.max(3, w.length - 2))).filter(Boolean))];
  const mark = (w: string): string => {
    const lower = w.toLowerCase();
    return stems.some((s) => lower.includes(s)) ? `«${w}»` : w;
  };
  return (text) => {
    const lower = text.toLowerCase();
    let at = -1;
    for (const s of stems) {
      const i = lower.indexOf(s);
      if (i !== -1 && (at === -1 || i < at)) at = i;
    }
    const start = at === -1 ? 0 : Math.max(0, at - WINDOW / 3);
    const out = stems.length ? text.slice(start, start + WINDOW).replace(WORD, mark) : text.slice(start, start + WINDOW);
    return `${start > 0 ? '…' : ''}${out}${start + WINDOW < text.length ? '…' : ''}`;
  };
}
