// A strict RFC 8259 parser that keeps the source form of every scalar. JSON.parse would reorder integer-like
// keys, silently round big numbers (12345678901234567890), drop duplicate keys and (on Node 20) often report
// no position; formatting and validation need none of that.

/** A scalar is its source text (a string, to spare one allocation per value); containers are objects. */
export type JsonNode =
  | { kind: 'object'; entries: { raw: string; key: string; value: JsonNode }[] }
  | { kind: 'array'; items: JsonNode[] }
  | string;

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

export function typeOf(node: JsonNode): JsonType {
  if (typeof node !== 'string') return node.kind;
  const c = node[0];
  return c === '"' ? 'string' : c === 't' || c === 'f' ? 'boolean' : c === 'n' ? 'null' : 'number';
}

export interface ParsedJson {
  root: JsonNode;
  /** JSON Pointers of keys that repeat within one object (at most 20). */
  duplicateKeys: string[];
  depth: number;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export const MAX_JSON_DEPTH = 512;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SIMPLE_ESCAPES = '"\\/bfnrt';
const pointerPart = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

class Parser {
  pos = 0;
  depth = 0;
  maxDepth = 0;
  readonly path: string[] = [];
  readonly duplicates: string[] = [];

  constructor(readonly text: string) {}

  fail(message: string, at = this.pos): never {
    throw new JsonSyntaxError(message, at);
  }

  ws(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.pos++;
    }
  }

  /** A message for a character that cannot start a value, naming the usual non-JSON habits. */
  unexpected(): never {
    const t = this.text;
    if (this.pos >= t.length) this.fail('Unexpected end of input: a value is missing.');
    const c = t[this.pos]!;
    if (c === "'") this.fail('Strings must use double quotes, not single quotes.');
    if (c === '/') this.fail('Comments are not allowed in JSON.');
    if (c === '\uFEFF') this.fail('Unexpected byte order mark (U+FEFF); remove it.');
    const word = /^[A-Za-z_$][\w$]*/.exec(t.slice(this.pos, this.pos + 32))?.[0];
    if (word) this.fail(`Unexpected word "${word}": only true, false, null, numbers, strings, arrays and objects are JSON.`);
    this.fail(`Unexpected character ${JSON.stringify(c)}.`);
  }

  value(): JsonNode {
    const t = this.text;
    const c = t[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    if (c === 't' || c === 'f' || c === 'n') {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
      if (t.startsWith(word, this.pos) && !/[\w$]/.test(t[this.pos + word.length] ?? '')) {
        this.pos += word.length;
        return word;
      }
    }
    return this.unexpected();
  }

  number(): JsonNode {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    const next = this.text[this.pos + (m?.[0].length ?? 0)] ?? '';
    if (!m || m[0] === '-' || /[\d.eE+\-xX]/.test(next)) {
      this.fail('Invalid number: JSON numbers have no leading zeros, "+" sign, hex, or bare "." and need digits after "." and "e".');
    }
    this.pos += m[0].length;
    return m[0];
  }

  /** Scans a string literal and returns its source text, quotes included. */
  string(): string {
    const t = this.text;
    const start = this.pos++;
    for (;;) {
      if (this.pos >= t.length) this.fail('Unterminated string.', start);
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) break;
      if (c === 0x5c) {
        const e = t[this.pos + 1] ?? '';
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(this.pos + 2, this.pos + 6))) this.fail('Invalid \\u escape: four hex digits are required.');
          this.pos += 6;
        } else if (e !== '' && SIMPLE_ESCAPES.includes(e)) this.pos += 2;
        else this.fail(`Invalid escape "\\${e}" in a string.`);
        continue;
      }
      if (c < 0x20) this.fail(`Control character U+${c.toString(16).padStart(4, '0').toUpperCase()} must be escaped inside a string.`);
      this.pos++;
    }
    this.pos++;
    return t.slice(start, this.pos);
  }

  enter(): void {
    if (++this.depth > MAX_JSON_DEPTH) this.fail(`Nesting deeper than ${MAX_JSON_DEPTH} levels is not supported.`);
    if (this.depth > this.maxDepth) this.maxDepth = this.depth;
  }

  object(): JsonNode {
    this.enter();
    this.pos++;
    const entries: { raw: string; key: string; value: JsonNode }[] = [];
    const seen = new Set<string>();
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos++;
      this.depth--;
      return { kind: 'object', entries };
    }
    for (;;) {
      this.ws();
      const c = this.text[this.pos];
      if (c !== '"') {
        if (c === '}' && entries.length) this.fail('Trailing comma before "}" is not allowed.');
        if (c === undefined) this.fail('Unexpected end of input inside an object.');
        this.fail(c === "'" ? 'Property names must use double quotes, not single quotes.' : 'Expected a property name in double quotes.');
      }
      const raw = this.string();
      const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      if (seen.has(key) && this.duplicates.length < 20) this.duplicates.push('/' + [...this.path, key].map(pointerPart).join('/'));
      seen.add(key);
      this.ws();
      if (this.text[this.pos] !== ':') this.fail(`Expected ":" after the property name ${raw}.`);
      this.pos++;
      this.ws();
      this.path.push(key);
      const value = this.value();
      this.path.pop();
      entries.push({ raw, key, value });
      this.ws();
      const d = this.text[this.pos];
      this.pos++;
      if (d === ',') continue;
      if (d === '}') break;
      this.fail(d === undefined ? 'Unexpected end of input: "}" is missing.' : 'Expected "," or "}" after a property value.', this.pos - 1);
    }
    this.depth--;
    return { kind: 'object', entries };
  }

  array(): JsonNode {
    this.enter();
    this.pos++;
    const items: JsonNode[] = [];
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos++;
      this.depth--;
      return { kind: 'array', items };
    }
    for (;;) {
      this.ws();
      if (this.text[this.pos] === ']' && items.length) this.fail('Trailing comma before "]" is not allowed.');
      this.path.push(String(items.length));
      items.push(this.value());
      this.path.pop();
      this.ws();
      const d = this.text[this.pos];
      this.pos++;
      if (d === ',') continue;
      if (d === ']') break;
      this.fail(d === undefined ? 'Unexpected end of input: "]" is missing.' : 'Expected "," or "]" after an array element.', this.pos - 1);
    }
    this.depth--;
    return { kind: 'array', items };
  }
}

/** Parses one JSON text; throws JsonSyntaxError with the offset of the problem. */
export function parseJson(text: string): ParsedJson {
  const p = new Parser(text);
  p.ws();
  const root = p.value();
  p.ws();
  if (p.pos < text.length) p.fail('Unexpected data after the JSON value (only one top-level value is allowed).');
  return { root, duplicateKeys: p.duplicates, depth: p.maxDepth };
}

/** 1-based line and column (in UTF-16 code units) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Serializes like JSON.stringify(value, null, indent) but keeps key order, duplicates and number text. */
export function stringifyNode(node: JsonNode, indent: number, sortKeys: boolean): string {
  // String concatenation (V8 ropes) measured ~2x faster than pushing pieces into an array and joining.
  const pad = ' '.repeat(indent);
  const colon = indent > 0 ? ': ' : ':';
  const write = (n: JsonNode, prefix: string): string => {
    if (typeof n === 'string') return n;
    const isObj = n.kind === 'object';
    if ((isObj ? n.entries.length : n.items.length) === 0) return isObj ? '{}' : '[]';
    const inner = prefix + pad;
    const open = indent > 0 ? '\n' + inner : '';
    const sep = indent > 0 ? ',\n' + inner : ',';
    const close = indent > 0 ? '\n' + prefix : '';
    let s = isObj ? '{' + open : '[' + open;
    if (isObj) {
      const entries = sortKeys ? [...n.entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : n.entries;
      for (let i = 0; i < entries.length; i++) s += (i > 0 ? sep : '') + entries[i]!.raw + colon + write(entries[i]!.value, inner);
      return s + close + '}';
    }
    for (let i = 0; i < n.items.length; i++) s += (i > 0 ? sep : '') + write(n.items[i]!, inner);
    return s + close + ']';
  };
  return write(node, '');
}
