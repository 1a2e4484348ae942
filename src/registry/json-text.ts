// A response field that SQLite already built as JSON text (a page of posts): REST writes the text into the
// body as it is, instead of parsing it into objects and serializing them again, which was most of a page's
// cost on the event loop. Anything else that reads the field (MCP, A2A, a template step, JSON.stringify)
// gets the parsed value, parsed once, so it behaves as a plain field everywhere. The text may come as UTF-8
// bytes: they live outside the JS heap, so a kept page costs the garbage collector nothing to move, and REST
// writes them without encoding a string.

const HELD = Symbol('jsonText');

type JsonText = string | Uint8Array;

interface Held {
  key: string;
  text: JsonText;
  /** Written after the other fields instead of before them. */
  last: boolean;
}

const asString = (text: JsonText): string => (typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8'));

/**
 * `fields` with `key` holding the JSON `text`: first, or `last` (a JSON-RPC response's `result` follows `jsonrpc`
 * and `id`, as JSON.stringify writes the object literal).
 */
export function withJsonText<T extends Record<string, unknown>>(key: string, text: JsonText, fields: T, at: 'first' | 'last' = 'first'): T & Record<string, unknown> {
  const out: Record<string, unknown> = at === 'last' ? { ...fields } : {};
  let parsed: unknown;
  let read = false;
  Object.defineProperty(out, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!read) {
        parsed = JSON.parse(asString(text));
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
  Object.defineProperty(out, HELD, { value: { key, text, last: at === 'last' } satisfies Held, configurable: true });
  return (at === 'last' ? out : Object.assign(out, fields)) as T & Record<string, unknown>;
}

/**
 * JSON.stringify, except that a field held as JSON text is written as that text, unparsed. Held bytes come back
 * as three pieces (head, bytes, tail) to be written in turn, so the page is never copied.
 */
export function stringifyBody(body: unknown): string | [string, Uint8Array, string] {
  const held = typeof body === 'object' && body !== null ? (body as { [HELD]?: Held })[HELD] : undefined;
  if (!held) return JSON.stringify(body);
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(body as object)) if (k !== held.key) rest[k] = (body as Record<string, unknown>)[k];
  const others = JSON.stringify(rest);
  const field = `${JSON.stringify(held.key)}:`;
  const [head, end] = held.last
    ? [others === '{}' ? `{${field}` : `${others.slice(0, -1)},${field}`, '}']
    : [`{${field}`, others === '{}' ? '}' : `,${others.slice(1)}`];
  return typeof held.text === 'string' ? `${head}${held.text}${end}` : [head, held.text, end];
}
