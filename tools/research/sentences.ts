// Sentence boundaries, by Unicode's sentence segmentation (Intl.Segmenter, ICU's UAX #29 rules): a full stop ends
// a sentence only before a space and what may start one, so an e-mail address (hello@acme.example), a URL, a
// decimal ($4.50) or "e.g. for teams" is never cut. ICU without its abbreviation data does cut after a title or an
// initial ("Dr. | Smith", "J. | R. R. Tolkien"), and after a ? with no space after it (a URL's query): those
// pieces are joined again here.

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Titles written before a name: "Dr. Smith" is one sentence. */
const TITLE = /(?:^|[\s(])(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sr|Jr|St|Mt|Ft|Gen|Col|Capt|Cmdr|Lt|Sgt|Rev|Fr|Hon|Gov|Sen|Rep|Pres|Supt|Messrs)\.$/;
/** Abbreviations written before a number: "No. 5", "Fig. 3", "pp. 12–14". */
const BEFORE_NUMBER = /(?:^|[\s(])(?:No|Nos|Fig|Figs|Vol|Vols|Ch|Sec|Art|Eq|p|pp|approx|ca|c)\.$/i;
/** One capital letter and its full stop: an initial ("J. R. R. Tolkien"). */
const INITIAL = /(?:^|[\s(])\p{Lu}\.$/u;

/** Whether a break ICU found between `before` and `after` falls inside a sentence. */
function joins(before: string, after: string): boolean {
  // A sentence ends before a space (or a CJK full stop): ICU also breaks after the ? of a URL's query.
  if (!/[\s。！？]$/u.test(before)) return true;
  const end = before.trimEnd();
  if (TITLE.test(end)) return /^\p{Lu}/u.test(after);
  if (BEFORE_NUMBER.test(end)) return /^\d/.test(after);
  if (INITIAL.test(end)) return /^\p{Lu}/u.test(after);
  return false;
}

/** [start, end) of each sentence of `text`, in order, covering it (each with its trailing spaces). */
export function sentenceSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const { index, segment } of segmenter.segment(text)) {
    const last = out[out.length - 1];
    if (last && joins(text.slice(last[0], last[1]), segment)) last[1] = index + segment.length;
    else out.push([index, index + segment.length]);
  }
  return out;
}

/** The sentences of `text`, trimmed, empty ones left out. */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text)
    .map(([s, e]) => text.slice(s, e).trim())
    .filter(Boolean);
}
