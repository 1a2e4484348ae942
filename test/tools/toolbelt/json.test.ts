import { describe, expect, it } from 'vitest';
import { toolbeltTools } from '../../../tools/toolbelt/index.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const reg = pureRegistry(toolbeltTools);

describe('json_format', () => {
  it('pretty-prints with 2 spaces by default, like JSON.stringify', async () => {
    const json = '{"a":[1,{"b":null}],"c":{},"d":[],"e":"x\\n"}';
    const out = await callTool(reg, 'json_format', { json });
    expect(out.formatted).toBe(JSON.stringify(JSON.parse(json), null, 2));
    expect(out.characters).toBe(out.formatted.length);
    expect(out.duplicate_keys).toEqual([]);
  });

  it('minifies with indent 0 and honours other indents', async () => {
    const json = '{\n  "a" : [ 1 , 2 ],\n  "b" : { "c" : true }\n}';
    expect((await callTool(reg, 'json_format', { json, indent: 0 })).formatted).toBe('{"a":[1,2],"b":{"c":true}}');
    expect((await callTool(reg, 'json_format', { json, indent: '4' })).formatted).toBe(JSON.stringify(JSON.parse(json), null, 4));
  });

  it('keeps key order, big numbers and number text exactly', async () => {
    const json = '{"b":1,"2":2,"a":{"big":12345678901234567890,"f":1.0,"e":1E+2,"s":"\\u00e9"}}';
    const out = await callTool(reg, 'json_format', { json, indent: 0 });
    expect(out.formatted).toBe(json);
  });

  it('sorts keys recursively on request', async () => {
    const json = '{"b":1,"a":{"z":[{"y":1,"x":2}],"10":0,"9":0}}';
    const out = await callTool(reg, 'json_format', { json, indent: 0, sort_keys: true });
    expect(out.formatted).toBe('{"a":{"10":0,"9":0,"z":[{"x":2,"y":1}]},"b":1}');
  });

  it('reports duplicate keys as JSON Pointers and keeps them', async () => {
    const out = await callTool(reg, 'json_format', { json: '{"a":{"x/y":1,"x/y":2},"a":[]}', indent: 0 });
    expect(out.duplicate_keys).toEqual(['/a/x~1y', '/a']);
    expect(out.formatted).toBe('{"a":{"x/y":1,"x/y":2},"a":[]}');
  });

  it('answers 422 with line and column for invalid JSON', async () => {
    const err = await callToolError(reg, 'json_format', { json: '{\n  "a": 1,\n}' });
    expect(err.code).toBe('validation_error');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/Trailing comma.*line 3, column 1/);
    expect(err.extra).toMatchObject({ line: 3, column: 1 });
  });

  it('rejects out-of-range indents and oversized input', async () => {
    for (const input of [{ json: '{}', indent: 9 }, { json: '{}', indent: -1 }, { json: ' '.repeat(1024 * 1024 + 1) }]) {
      const err = await callToolError(reg, 'json_format', input);
      expect(err.code).toBe('validation_error');
      expect(err.status).toBe(422);
    }
  });
});

describe('json_validate', () => {
  it.each([
    ['{"a":[1,2]}', 'object', 2],
    ['[]', 'array', 1],
    ['"x"', 'string', 0],
    [' -0.5e-3 ', 'number', 0],
    ['true', 'boolean', 0],
    ['null', 'null', 0],
  ])('%s is valid %s', async (json, type, depth) => {
    expect(await callTool(reg, 'json_validate', { json })).toEqual({ valid: true, type, depth, duplicate_keys: [] });
  });

  it('returns invalid JSON as a result with line, column and context', async () => {
    const out = await callTool(reg, 'json_validate', { json: '{\n  "a": 1,\n  "b": [1, 2,]\n}' });
    expect(out.valid).toBe(false);
    expect(out.error).toMatchObject({ line: 3, column: 14, offset: 25 });
    expect(out.error.message).toMatch(/Trailing comma before "\]"/);
    expect(out.error.context).toContain('[1, 2,]');
  });

  it.each([
    ['', /end of input/],
    ["{'a': 1}", /double quotes/],
    ['{a: 1}', /property name in double quotes/],
    ['{"a": 1} // note', /Unexpected data after/],
    ['/* c */ {}', /Comments/],
    ['[NaN]', /Unexpected word "NaN"/],
    ['[01]', /Invalid number/],
    ['[1.]', /Invalid number/],
    ['["a\tb"]', /Control character U\+0009/],
    ['["\\x41"]', /Invalid escape/],
    ['["abc', /Unterminated string/],
    ['{"a" 1}', /Expected ":"/],
    ['[1 2]', /Expected "," or "\]"/],
    ['\uFEFF{}', /byte order mark/],
    ['[' .repeat(513) + ']'.repeat(513), /Nesting deeper than 512/],
  ])('%j is invalid (%s)', async (json, message) => {
    const out = await callTool(reg, 'json_validate', { json });
    expect(out.valid).toBe(false);
    expect(out.error.message).toMatch(message);
    expect(out.error.line).toBeGreaterThanOrEqual(1);
    expect(out.error.column).toBeGreaterThanOrEqual(1);
  });

  it('flags duplicate keys but calls them valid', async () => {
    const out = await callTool(reg, 'json_validate', { json: '{"a":1,"a":2}' });
    expect(out).toEqual({ valid: true, type: 'object', depth: 1, duplicate_keys: ['/a'] });
  });

  it('needs the json field', async () => {
    const err = await callToolError(reg, 'json_validate', {});
    expect(err.code).toBe('validation_error');
    expect(err.status).toBe(422);
  });
});
