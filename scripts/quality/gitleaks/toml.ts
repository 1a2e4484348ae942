// The part of TOML that gitleaks' config/gitleaks.toml is written in: `[table]`, `[[array.of.tables]]`, `key = value`
// with basic ("…") and literal ('…', '''…''') strings, numbers, booleans and (multi-line) arrays, `#` comments.
// Anything else is an error, so a format change upstream is noticed rather than misread.
type Value = string | number | boolean | Value[] | Table;
export interface Table {
  [key: string]: Value;
}

export function parseToml(text: string): Table {
  const root: Table = {};
  let current: Table = root;
  let i = 0;

  const fail = (msg: string): never => {
    throw new Error(`toml: ${msg} at line ${text.slice(0, i).split('\n').length}`);
  };
  const skipSpace = (newlines: boolean) => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) i++;
      else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
      else return;
    }
  };
  const key = (): string => {
    const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
    if (!m) return fail('key expected');
    i += m[0].length;
    return m[0];
  };
  const basicString = (): string => {
    let out = '';
    i++;
    for (;;) {
      const c = text[i++];
      if (c === undefined || c === '\n') return fail('unterminated string');
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = text[i++];
      const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
      if (e in simple) out += simple[e];
      else if (e === 'u' || e === 'U') {
        const n = e === 'u' ? 4 : 8;
        out += String.fromCodePoint(parseInt(text.slice(i, i + n), 16));
        i += n;
      } else fail(`bad escape \\${e}`);
    }
  };
  const value = (): Value => {
    if (text.startsWith("'''", i)) {
      const end = text.indexOf("'''", i + 3);
      if (end < 0) fail('unterminated literal string');
      let s = text.slice(i + 3, end);
      if (s.startsWith('\n')) s = s.slice(1);
      i = end + 3;
      return s;
    }
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const s = text.slice(i + 1, end);
      i = end + 1;
      return s;
    }
    if (c === '"') return basicString();
    if (c === '[') {
      i++;
      const arr: Value[] = [];
      for (;;) {
        skipSpace(true);
        if (text[i] === ']') {
          i++;
          return arr;
        }
        arr.push(value());
        skipSpace(true);
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('array: , or ] expected');
      }
    }
    const m = /^(true|false|[+-]?\d+(\.\d+)?)/.exec(text.slice(i));
    if (!m) return fail('value expected');
    i += m[0].length;
    return m[1] === 'true' ? true : m[1] === 'false' ? false : Number(m[1]);
  };
  const path = (): string[] => {
    const parts = [key()];
    while (text[i] === '.') {
      i++;
      parts.push(key());
    }
    return parts;
  };

  while (i < text.length) {
    skipSpace(true);
    if (i >= text.length) break;
    if (text.startsWith('[[', i)) {
      i += 2;
      const parts = path();
      if (!text.startsWith(']]', i)) fail(']] expected');
      i += 2;
      let t: Table = root;
      for (const p of parts.slice(0, -1)) {
        const v = t[p];
        t = (Array.isArray(v) ? v[v.length - 1] : v) as Table;
        if (!t) fail(`no table ${p}`);
      }
      const last = parts[parts.length - 1];
      const arr = (t[last] ??= []) as Table[];
      current = {};
      arr.push(current);
    } else if (text[i] === '[') {
      i++;
      const parts = path();
      if (text[i++] !== ']') fail('] expected');
      let t: Table = root;
      for (const p of parts) t = (t[p] ??= {}) as Table;
      current = t;
    } else {
      const k = key();
      skipSpace(false);
      if (text[i++] !== '=') fail('= expected');
      skipSpace(false);
      current[k] = value();
    }
    skipSpace(false);
    if (i < text.length && text[i] !== '\n') fail('end of line expected');
  }
  return root;
}
