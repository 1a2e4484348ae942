// JSON formatting and validation on top of the order- and number-preserving parser in json-parse.ts.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { cappedText, flag, int, invalid, PURE, TOOLBELT_BASE } from './common.js';
import { JsonSyntaxError, lineColumn, MAX_JSON_DEPTH, parseJson, stringifyNode, typeOf, type ParsedJson } from './json-parse.js';

const jsonText = cappedText('The JSON text (at most 1 MB).');

interface SyntaxProblem {
  message: string;
  line: number;
  column: number;
  offset: number;
  /** The source around the problem, so an agent can see it without counting characters. */
  context: string;
}

function problemOf(text: string, err: JsonSyntaxError): SyntaxProblem {
  const { line, column } = lineColumn(text, err.offset);
  const from = Math.max(0, err.offset - 20);
  return {
    message: `${err.message} (line ${line}, column ${column})`,
    line,
    column,
    offset: err.offset,
    context: text.slice(from, err.offset + 20),
  };
}

type Outcome = { ok: true; parsed: ParsedJson } | { ok: false; problem: SyntaxProblem };

function tryParse(text: string): Outcome {
  try {
    return { ok: true, parsed: parseJson(text) };
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { ok: false, problem: problemOf(text, err) };
    throw err;
  }
}

export const jsonFormat = defineTool({
  ...TOOLBELT_BASE,
  name: 'json_format',
  title: 'Format JSON',
  description:
    'Pretty-prints or minifies JSON. indent 1–8 spaces (default 2) pretty-prints; indent 0 minifies to one ' +
    'line. sort_keys=true orders object keys by code unit, recursively. Key order, duplicate keys and number ' +
    'text (e.g. 1.0, 12345678901234567890) are kept exactly: nothing is rounded. Invalid JSON answers 422 ' +
    'with the line and column. Returns {formatted, characters, duplicate_keys (JSON Pointers)}.',
  input: z.object({
    json: jsonText,
    indent: int(0, 8, 2, 'Spaces per level, 0–8. 0 = minify (single line, no spaces). Default 2.'),
    sort_keys: flag(false, 'Sort object keys (recursively, by UTF-16 code unit). Default false keeps source order.'),
  }),
  annotations: PURE,
  handler: (input) => {
    const r = tryParse(input.json);
    if (!r.ok) throw invalid('json', r.problem.message, { line: r.problem.line, column: r.problem.column });
    const formatted = stringifyNode(r.parsed.root, input.indent, input.sort_keys);
    return { formatted, characters: formatted.length, duplicate_keys: r.parsed.duplicateKeys };
  },
});

export const jsonValidate = defineTool({
  ...TOOLBELT_BASE,
  name: 'json_validate',
  title: 'Validate JSON',
  description:
    'Checks whether text is valid JSON (RFC 8259, strict: no comments, trailing commas, single quotes, NaN ' +
    `or BOM; nesting up to ${MAX_JSON_DEPTH}). Invalid JSON is a normal result, not an error: {valid: false, ` +
    'error: {message, line, column, offset, context}} with 1-based line/column. Valid JSON gives {valid: ' +
    'true, type (object|array|string|number|boolean|null), depth, duplicate_keys} — duplicate keys are legal ' +
    'but most parsers keep only the last one.',
  input: z.object({ json: jsonText }),
  annotations: PURE,
  handler: (input) => {
    const r = tryParse(input.json);
    if (!r.ok) return { valid: false, error: r.problem };
    return {
      valid: true,
      type: typeOf(r.parsed.root),
      depth: r.parsed.depth,
      duplicate_keys: r.parsed.duplicateKeys,
    };
  },
});
