// Synthetic memory content for benchmarks: sentences over a fixed vocabulary with a Zipf-like spread, so
// common words match many entries and rare ones few, as in real notes.
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ten', 'vo', 'su', 'pel', 'dan', 'qui', 'bor', 'nes', 'tar', 'fi', 'gu', 'zel'];

/** About 20,000 distinct words, like the working vocabulary of real notes. */
export const VOCABULARY: string[] = (() => {
  const words: string[] = [];
  for (const a of SYLLABLES) for (const b of SYLLABLES) for (const c of SYLLABLES) for (const d of ['', 'n', 'ro', 'sk', 'el']) words.push(a + b + c + d);
  return words;
})();

/** A deterministic pseudo-random generator (mulberry32), so runs are comparable. */
export function rng(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

export function word(rand: () => number): string {
  // Squaring skews towards the front of the vocabulary: a few frequent words, a long tail of rare ones.
  return VOCABULARY[Math.floor(rand() * rand() * VOCABULARY.length)];
}

export function sentence(rand: () => number, words = 12): string {
  return Array.from({ length: words }, () => word(rand)).join(' ');
}
