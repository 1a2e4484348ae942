// The extraction without a model, whole: a page's structure and text, the entities the fields need, the fields
// filled. Pure CPU (linkedom, compromise): it runs on a thread of its own (off-loop.ts).
import { findEntities } from './entities.js';
import { PAGE_TEXT_MAX_CHARS } from './limits.js';
import { entityKindsFor, mapFields, type Mapped } from './map.js';
import type { Field } from './schema.js';
import { readPage, type Candidate } from './structured.js';
import type { Thing } from './things.js';

export interface EngineInput {
  kind: 'text' | 'html';
  body: string;
  fields: Field[];
  /** The page's URL (a URL source's final one), against which its relative links are resolved. */
  url?: string;
}

export interface EngineOutput extends Mapped {
  /** The text read (for the model, and what is metered with `structuredChars`). */
  text: string;
  /** Characters metered: the text, and a page's JSON-LD, at most PAGE_TEXT_MAX_CHARS for a page. */
  chars: number;
  /** A page's text was longer than what is read. */
  truncated: boolean;
}

export function runEngine({ kind, body, fields, url }: EngineInput): EngineOutput {
  let text = body;
  let candidates: Candidate[] = [];
  let things: Thing[] = [];
  let structuredChars = 0;
  let truncated = false;
  if (kind === 'html') {
    const page = readPage(body, url);
    things = page.things;
    candidates = page.candidates;
    structuredChars = Math.min(page.structuredChars, PAGE_TEXT_MAX_CHARS);
    const room = PAGE_TEXT_MAX_CHARS - structuredChars;
    truncated = page.text.length > room;
    text = truncated ? page.text.slice(0, room) : page.text;
  }
  const mapped = mapFields(fields, things, candidates, findEntities(text, entityKindsFor(fields)));
  return { ...mapped, text, chars: text.length + structuredChars, truncated };
}
