// Markdown tables in a reply ("| # | Headline | Body | CTA |"), each as rows keyed by its header: models like
// tables for ad variations and product lists. Cells keep their text; <br> becomes a line break.

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.replace(/<br\s*\/?>/gi, '\n').replace(/\\\|/g, '|').trim());

export function readTables(text: string): Record<string, string>[][] {
  const lines = text.split('\n');
  const tables: Record<string, string>[][] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].includes('|') || !/^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(lines[i + 1])) continue;
    const header = cells(lines[i]);
    const rows: Record<string, string>[] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j].includes('|') && lines[j].trim(); j++) {
      const row = cells(lines[j]);
      rows.push(Object.fromEntries(header.map((h, k) => [h.replace(/\*\*|__/g, ''), row[k] ?? ''])));
    }
    if (rows.length) tables.push(rows);
    i = j - 1;
  }
  return tables;
}
