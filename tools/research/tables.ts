// Tables in a passage (Markdown pipe tables: a header row, a |---| delimiter row, then a row a line) read for the
// question: a row whose header (its first cell) the question names answers it, with the columns whose headers the
// question names ("How much is the Pro plan?" → "Pro — Price: $29 per month"); when the question names a column
// but no row, the column across the rows answers it ("Price — Starter: $9; Pro: $29"). A piece of a long table cut
// from its header rows is read with its cells alone.
import { processTerm } from './passages.js';

const WORDS = /[\p{L}\p{N}]+/gu;
const DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const ROW = /^\s*\|.*\|\s*$/;

/** Question words that ask for a column named otherwise ("what does it cost" asks for the price). */
const ASKS: Record<string, string[]> = {
  price: ['cost', 'much', 'pay', 'fee', 'charge', 'pricing', 'expensive', 'cheap'],
  date: ['when', 'day'],
  time: ['when', 'hour', 'long'],
  location: ['where'],
  address: ['where'],
  email: ['mail', 'contact', 'write'],
  phone: ['call', 'telephone', 'contact'],
};

export interface Table {
  header: string[] | null;
  rows: string[][];
  /** [start, end) of the table in the text it was read from. */
  span: [number, number];
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.replace(/\\\|/g, '|').trim());

/** The pipe tables of a text: runs of at least two lines that start and end with a pipe. */
export function tablesIn(text: string): Table[] {
  const out: Table[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let run: { start: number; end: number; lines: string[] } | null = null;
  const flush = () => {
    if (run && run.lines.length >= 2) {
      const hasHeader = run.lines.length >= 2 && DELIMITER.test(run.lines[1]!);
      const body = (hasHeader ? run.lines.slice(2) : run.lines).filter((l) => !DELIMITER.test(l));
      out.push({ header: hasHeader ? cellsOf(run.lines[0]!) : null, rows: body.map(cellsOf), span: [run.start, run.end] });
    }
    run = null;
  };
  for (const line of lines) {
    const end = offset + line.length;
    if (ROW.test(line) || (run && DELIMITER.test(line))) {
      if (run) {
        run.lines.push(line);
        run.end = end;
      } else run = { start: offset, end, lines: [line] };
    } else flush();
    offset = end + 1;
  }
  flush();
  return out;
}

const termsOf = (s: string): string[] => [...new Set((s.match(WORDS) ?? []).map(processTerm).filter((t): t is string => t !== null))];

/**
 * The question's words that name a header, or none: a row header is named when the question has every term of it,
 * a column header when it has any term of it or a word that asks for it (ASKS: "cost" asks for the price).
 */
function naming(question: Set<string>, header: string, column: boolean): string[] {
  const terms = termsOf(header);
  if (!terms.length) return [];
  if (!column) return terms.every((t) => question.has(t)) ? terms : [];
  return terms.flatMap((t) => [t, ...(ASKS[t] ?? [])]).filter((w) => question.has(w));
}

export interface TableAnswer {
  /** The row or column as a sentence: "Pro — Price: $29 per month." */
  s: string;
  /** The question's words it answers (its row's and columns' headers, or the words asking for them). */
  terms: string[];
}

/**
 * What a table says to the question: the rows it names (with the columns it names, else every column), or, when
 * it names no row, the columns it names across the rows. Empty when it names neither.
 */
export function tableAnswers(question: string, table: Table): TableAnswer[] {
  const words = (question.match(WORDS) ?? []).map((w) => w.toLowerCase());
  const q = new Set([...words, ...words.map(processTerm).filter((t): t is string => t !== null)]);
  const header = table.header;
  const columns = (header ?? []).map((h, i) => ({ i, terms: i > 0 ? naming(q, h, true) : [] })).filter((c) => c.terms.length);
  const rows = table.rows.map((r) => ({ r, terms: r[0] ? naming(q, r[0], false) : [] })).filter((x) => x.terms.length);
  const cell = (r: string[], i: number) => r[i] ?? '';
  const asked = columns.flatMap((c) => c.terms);
  if (rows.length) {
    const shown = columns.length ? columns.map((c) => c.i) : (header ?? rows[0]!.r).map((_, i) => i).filter((i) => i > 0);
    return rows.map(({ r, terms }) => ({
      s: `${r[0]} — ${shown.map((i) => (header?.[i] ? `${header[i]}: ${cell(r, i)}` : cell(r, i))).filter((x) => x.trim()).join('; ')}.`,
      terms: [...terms, ...asked],
    }));
  }
  if (columns.length && header) {
    // The rows' own header ("Plan") named too: "what does each plan cost" asks for the price of every plan.
    const rowsNamed = naming(q, header[0] ?? '', true);
    return columns.map((c) => ({ s: `${header[c.i]} — ${table.rows.map((r) => `${r[0]}: ${cell(r, c.i)}`).join('; ')}.`, terms: [...c.terms, ...rowsNamed] }));
  }
  return [];
}
