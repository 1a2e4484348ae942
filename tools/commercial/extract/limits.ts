// What an extraction may take and what it may cost (docs/decisions/commercial-extract.md). Tokens are counted
// as the gateway counts unreported usage everywhere: four characters a token.

/** Most characters of a text source (422 beyond): about 25,000 tokens, $2.50 at the default rate. */
export const TEXT_MAX_CHARS = 100_000;
/** Most characters of an inline HTML source. */
export const HTML_MAX_CHARS = 1024 * 1024;
/** Largest page fetched for a URL source (413 beyond, released). */
export const FETCH_MAX_BYTES = 1024 * 1024;
/** Whole-fetch time limit of a URL source. */
export const FETCH_TIMEOUT_MS = 15_000;
/**
 * Most characters of a page read (its visible text, then its JSON-LD): what a URL or HTML source is metered on.
 * A page's text can never be longer than its bytes, and it is cut here, so this bounds what a page may cost.
 */
export const PAGE_TEXT_MAX_CHARS = TEXT_MAX_CHARS;
/** Most fields one object of a schema may name (the top level or a nested object). */
export const MAX_FIELDS = 50;
/** Most fields a schema may name in all, nested ones included. */
export const MAX_SCHEMA_FIELDS = 200;
/** Deepest a schema may nest: a top-level field is at level 1, a field of an object field at level 2… */
export const MAX_SCHEMA_DEPTH = 6;
/** The model's calls: the first, and one more when its reply misses the schema. */
export const MODEL_ATTEMPTS = 2;
/** Completion tokens allowed for in the hold of each model call. */
export const MODEL_COMPLETION_TOKENS = 4096;
/** Whole time an extraction may take in its request (fetch, engines and model); beyond it the order fails. */
export const TIME_BUDGET_MS = 60_000;

export const tokensOf = (chars: number): number => Math.ceil(chars / 4);

/** Most tokens one model call's prompt may be: the instructions, the schema, the hints and the source, with headroom. */
export const modelPromptCap = (sourceChars: number, schemaChars: number): number => Math.ceil(tokensOf(sourceChars + 2 * schemaChars + 3000) * 1.5);

/** The most an extraction can use, in tokens: its source, and with a model every call's prompt and completion. */
export function tokenCap(sourceType: 'text' | 'html' | 'url', sourceChars: number, schemaChars: number, withModel: boolean): number {
  const read = sourceType === 'text' ? sourceChars : PAGE_TEXT_MAX_CHARS;
  const source = tokensOf(read);
  return withModel ? source + MODEL_ATTEMPTS * (modelPromptCap(read, schemaChars) + MODEL_COMPLETION_TOKENS) : source;
}
