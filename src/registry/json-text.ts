// A response field that SQLite already built as JSON text (a page of posts): REST writes the text into the
// body as it is, instead of parsing it into objects and serializing them again, which was most of a page's
// cost on the event loop. Anything else that reads the field (MCP, A2A, a template step, JSON.stringify)
// gets the parsed value, parsed once, so it behaves as a plain field everywhere.

const HELD = Symbol('jsonText');

interface Held {
  key: string;
  text: string;
}

/** `fields` with `key` first, holding the JSON `text`. */
export function withJsonText<T extends Record<string, unknown>>(key: string, text: string, fields: T): T & Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let parsed: unknown;
  let read = false;
  Object.defineProperty(out, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!read) {
        parsed = JSON.parse(text);
        read = true;
      }
      return parsed;
    },
    // A caller that replaces the field gets a plain field (and REST then serializes it as usual).
    set: (v: unknown) => {
      Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      delete (out as { [HELD]?: Held })[HELD];
    },
  });
  Object.defineProperty(out, HELD, { value: { key, text } satisfies Held, configurable: true });
  return Object.assign(out, fields) as T & Record<string, unknown>;
}

/** JSON.stringify, except that a field held as JSON text is written as that text, unparsed. */
export function stringifyBody(body: unknown): string {
  const held = typeof body === 'object' && body !== null ? (body as { [HELD]?: Held })[HELD] : undefined;
  if (!held) return JSON.stringify(body);
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(body as object)) if (k !== held.key) rest[k] = (body as Record<string, unknown>)[k];
  const tail = JSON.stringify(rest);
  return `{${JSON.stringify(held.key)}:${held.text}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
}
