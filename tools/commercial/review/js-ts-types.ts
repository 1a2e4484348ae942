// The types a TypeScript file names, read back after its types were stripped. Stripping (amaro, js-ts-strip.ts)
// puts blanks where the types were, so ESLint sees `function f()           {` where the file says
// `function f(): Document {`: the blank run after a declared name, a parameter list or an expression, read in the
// original text, is its annotation (`: Document`) or its assertion (`as Document`). Only a plain named type is
// returned (`Document`, `express.Request`, `Document | null` as `Document`); unions of several types, object
// and function types say nothing certain and give undefined.
import type * as ESTree from 'estree';

type Ranged = ESTree.Node & { range?: [number, number] };

/** One named type, its generic arguments and array marks dropped; nullable forms read as the type. */
export function plainTypeName(text: string): string | undefined {
  const parts = text.split('|').map((p) => p.trim()).filter((p) => p && !/^(null|undefined|void)$/.test(p));
  if (parts.length !== 1) return undefined;
  const m = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*(<.*>)?$/s.exec(parts[0]!);
  return m ? m[1] : undefined;
}

export class TypeAnnotations {
  constructor(
    private readonly original: string,
    readonly stripped: string,
  ) {}

  /** The original text of the blank run that starts at `offset` in the stripped text (where types were). */
  private blankRun(offset: number): string {
    const s = this.stripped;
    let end = offset;
    while (end < s.length && (s[end] === ' ' || s[end] === '\t' || s[end] === '\n' || s[end] === '\r')) end++;
    return this.original.slice(offset, end);
  }

  /** `x: T`, `x?: T`, `x!: T` after a declared name or parameter (`id` in the stripped file's tree). */
  declared(id: ESTree.Node): string | undefined {
    const end = (id as Ranged).range?.[1];
    if (end === undefined) return undefined;
    const m = /^\s*[?!]?\s*:\s*([\s\S]+?)\s*$/.exec(this.blankRun(end));
    return m ? plainTypeName(m[1]!) : undefined;
  }

  /** `x as T` (or `x satisfies T`, which tells the same) after an expression. */
  asserted(expr: ESTree.Node): string | undefined {
    const end = (expr as Ranged).range?.[1];
    if (end === undefined) return undefined;
    const m = /^\s*(?:as|satisfies)\s+([\s\S]+?)\s*$/.exec(this.blankRun(end));
    return m && m[1] !== 'const' ? plainTypeName(m[1]!) : undefined;
  }

  /** The return type a function declares: `function f(): T {`, `(): T => …`. */
  returned(fn: ESTree.Function): string | undefined {
    const body = (fn.body as Ranged).range?.[0];
    if (body === undefined) return undefined;
    // Back from the body over the blanks (and an arrow's `=>`) to the `)` closing the parameters.
    const s = this.stripped;
    let i = body - 1;
    while (i >= 0 && /\s/.test(s[i]!)) i--;
    if (fn.type === 'ArrowFunctionExpression' && s[i] === '>' && s[i - 1] === '=') for (i -= 2; i >= 0 && /\s/.test(s[i]!); ) i--;
    if (s[i] !== ')') return undefined;
    const m = /^\s*:\s*([\s\S]+?)\s*$/.exec(this.blankRun(i + 1));
    return m ? plainTypeName(m[1]!) : undefined;
  }
}

let current: { original: string; read?: TypeAnnotations } | undefined;

/**
 * The original TypeScript of the file being linted, for the rules that ask for types (js-type-oracle.ts): set by
 * lintJs around its synchronous Linter run, so only that run reads it.
 */
export function withOriginalText<T>(original: string | undefined, run: () => T): T {
  const before = current;
  current = original === undefined ? undefined : { original };
  try {
    return run();
  } finally {
    current = before;
  }
}

/** The annotations of the file being linted, if it is TypeScript (the stripped text keeps every position). */
export function annotationsOf(stripped: string): TypeAnnotations | undefined {
  if (!current || current.original.length !== stripped.length) return undefined;
  // A recovery (eslint.ts) may read a rewritten text of the same length: one reader per text.
  if (current.read?.stripped !== stripped) current.read = new TypeAnnotations(current.original, stripped);
  return current.read;
}
