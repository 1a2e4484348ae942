// Statements as the stores write them (SQLite's placeholders: `?` in order, `?NNN`, or `@name`, `:name`, `$name` with an
// object of values) turned into PostgreSQL's numbered `$1…$n`, skipping quoted text, identifiers and comments, and
// `::` casts. Each distinct statement is translated once and cached.
import type { Params, SqlValue } from './db.js';

interface Translated {
  text: string;
  /** For named placeholders: the name behind each $n. */
  names: string[] | null;
}

const cache = new Map<string, Translated>();
const CACHE_MAX = 2000;

function translate(sql: string): Translated {
  let out = '';
  let n = 0;
  const names: string[] = [];
  const numbered = new Map<string, number>();
  for (let i = 0; i < sql.length; ) {
    const c = sql[i];
    // Quoted text or identifier: copied as is (a doubled quote inside stays inside).
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      out += end < 0 ? sql.slice(i) : sql.slice(i, end);
      i = end < 0 ? sql.length : end;
      continue;
    }
    if (c === ':' && sql[i + 1] === ':') {
      out += '::';
      i += 2;
      continue;
    }
    if (c === '?') {
      // ?NNN is that parameter; a bare ? the one after the highest so far (SQLite's rule).
      const digits = /^\d+/.exec(sql.slice(i + 1))?.[0];
      n = digits ? Math.max(n, Number(digits)) : n + 1;
      out += `$${digits ?? n}`;
      i += 1 + (digits?.length ?? 0);
      continue;
    }
    if ((c === '@' || c === ':' || c === '$') && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))![0];
      let k = numbered.get(name);
      if (k === undefined) {
        k = names.push(name);
        numbered.set(name, k);
      }
      out += `$${k}`;
      i += 1 + name.length;
      continue;
    }
    out += c;
    i++;
  }
  if (n > 0 && names.length > 0) throw new Error('a statement mixes ? and named placeholders');
  return { text: out, names: names.length ? names : null };
}

/** The statement's PostgreSQL text and its values in $n order. */
export function toPg(sql: string, params?: Params): { text: string; values: SqlValue[] } {
  let t = cache.get(sql);
  if (!t) {
    t = translate(sql);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(sql, t);
  }
  if (!params) return { text: t.text, values: [] };
  if (Array.isArray(params)) return { text: t.text, values: params };
  const named = params as Record<string, SqlValue>;
  return {
    text: t.text,
    values: (t.names ?? []).map((name) => {
      if (!(name in named)) throw new Error(`missing named parameter '${name}'`);
      return named[name];
    }),
  };
}
