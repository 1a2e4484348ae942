// Replies as real models write them, for the content tests.

const VOCAB = 'the quick brown fox jumps over lazy dogs while careful writers count every single word they publish today'.split(' ');

/** `n` words of plain prose. */
export function words(n: number, seed = 0): string {
  return Array.from({ length: n }, (_, i) => VOCAB[(i + seed) % VOCAB.length]).join(' ');
}

/** Five ad variations in the asked format, within Google's limits. */
export function adsReply(): string {
  return Array.from({ length: 5 }, (_, i) => `### Variation ${i + 1}\nHeadline: Same-Day Courier ${i + 1}\nBody: Parcels across town before dinner. Track every step live.\nCall to action: Book a pickup`).join('\n\n');
}

/** A dev task's delivery in the shape the gateway asks the model for. */
export const DEV_REPLY = '## Summary\nA function that adds two numbers.\n\n## Code\n```python\ndef add(a, b):\n    return a + b\n```\n\n## Explanation\nIt adds.\n\n## How to run\nImport it.\n\n## How to test\nassert add(1, 2) == 3';
