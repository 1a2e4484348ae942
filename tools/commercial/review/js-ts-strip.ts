// TypeScript that amaro's strip-only mode does not take (TSX, parameter properties, enums, namespaces, and
// decorators, which ESLint's parser does not read either): its types are blanked with tree-sitter's TypeScript/TSX
// grammar (@ast-grep/napi's built-in parsers), putting spaces where the types were so that every line and column
// stays the same, as amaro does. What remains is JavaScript (with JSX) for ESLint. Two pieces of code go too, as no
// rule looks into them: an enum's declaration (its uses stay, as names) and a namespace's header (its body stays,
// as a block). TypeScript's CommonJS forms are read as JavaScript of the same length: `import x = require('m')` and
// `import A = B.C` as `const  x = …`, `export = value` as `void     value`.
import { Lang, parse, type SgNode } from '@ast-grep/napi';

export type StripOutcome = { code: string; clientParams: string[] } | { unsupported: string } | { syntax: string };

/** Parameter decorators that hand a handler the request's data (NestJS, routing-controllers, tsoa). */
const CLIENT_DECORATOR = /^@(Query|Param|Body|Headers|Req|Request|Cookies|QueryParam|QueryParams|BodyParam|HeaderParam|HeaderParams|CookieParam|Params|UploadedFile|UploadedFiles|Path|Header)\b/;

/** Nodes that are types or type-only declarations, blanked whole. */
const TYPE_ONLY = new Set([
  'type_annotation', 'type_arguments', 'type_parameters', 'interface_declaration', 'type_alias_declaration', 'ambient_declaration',
  'function_signature', 'abstract_method_signature', 'index_signature', 'implements_clause', 'accessibility_modifier', 'override_modifier', 'decorator',
  'asserts_annotation', 'type_predicate_annotation', 'omitting_type_annotation', 'opting_type_annotation', 'adding_type_annotation',
]);
/** Keywords that only qualify a declaration (`readonly x`, `abstract class`, `declare field`). */
const MODIFIER_WORDS = new Set(['readonly', 'abstract', 'declare']);

export function stripTypes(code: string, jsx: boolean): StripOutcome {
  const root = parse(jsx ? Lang.Tsx : Lang.TypeScript, code).root();
  const error = root.find({ rule: { kind: 'ERROR' } });
  if (error) return { syntax: `syntax error at line ${error.range().start.line + 1}` };
  const cuts: [number, number][] = [];
  /** Equal-length rewrites: the `import` of an import-equals declaration becomes `const `. */
  const swaps: [number, string][] = [];
  const clientParams: string[] = [];
  const cut = (n: SgNode, from?: SgNode) => cuts.push([(from ?? n).range().start.index, n.range().end.index]);
  const visit = (n: SgNode): string | undefined => {
    const kind = n.kind() as string;
    if (kind === 'required_parameter' || kind === 'optional_parameter') {
      // @Query('q') q: string: the parameter is the client's (its position, as ESLint will see it).
      const deco = n.children().find((c) => (c.kind() as string) === 'decorator' && CLIENT_DECORATOR.test(c.text()));
      const id = n.children().find((c) => (c.kind() as string) === 'identifier');
      if (deco && id) clientParams.push(`${id.range().start.line + 1}:${id.range().start.column}`);
    }
    if (kind === 'enum_declaration') return void cut(n);
    const children = n.children();
    const kw = children[0];
    if (kw && (kw.kind() as string) === 'import' && (kind === 'import_alias' || children.some((c) => (c.kind() as string) === 'import_require_clause')) && !/^import\s+type\s/.test(n.text())) {
      swaps.push([kw.range().start.index, 'const ']);
      const parent = n.parent();
      // export import A = B.C: the `export` goes (a declaration inside a namespace's block may not export).
      if ((parent?.kind() as string | undefined) === 'export_statement') cut(parent!.children()[0]!);
      return;
    }
    if (kind === 'export_statement' && (children[1]?.kind() as string | undefined) === '=') {
      // export = value → void value (an expression statement, so that `export = function () {}` stays a function expression).
      cuts.push([n.range().start.index, children[1]!.range().end.index]);
      swaps.push([n.range().start.index, 'void']);
    }
    if (kind === 'internal_module' || kind === 'module') {
      // namespace A.B { … } → { … }; `export` before it goes too.
      const body = children.find((c) => (c.kind() as string) === 'statement_block');
      if (!body) return void cut(n);
      cuts.push([n.range().start.index, body.range().start.index]);
      const parent = n.parent();
      if ((parent?.kind() as string | undefined) === 'export_statement') cuts.push([parent!.range().start.index, n.range().start.index]);
      // Inside the block, `export` is not allowed: the members become the block's own declarations.
      for (const st of body.children()) {
        const kw = (st.kind() as string) === 'export_statement' ? st.children()[0] : undefined;
        if (kw && (kw.kind() as string) === 'export') cut(kw);
      }
      return visit(body);
    }
    if (TYPE_ONLY.has(kind)) return void cut(n);
    switch (kind) {
      case 'export_statement':
        // export enum E {…}: the whole statement (see the header).
        if (children.some((c) => (c.kind() as string) === 'enum_declaration')) return void cut(n);
      // falls through
      case 'import_statement': {
        // export interface …, export type …, import type …, export type { … }: the whole statement.
        const decl = children.find((c) => c.isNamed() && (c.kind() as string) !== 'comment');
        if (decl && ((decl.kind() as string) === 'interface_declaration' || (decl.kind() as string) === 'type_alias_declaration')) return void cut(n);
        if (children.some((c) => (c.kind() as string) === 'type' && !c.isNamed()) || /^(import|export)\s+type\s/.test(n.text())) return void cut(n);
        break;
      }
      case 'import_specifier':
      case 'export_specifier':
        // import { type A, B }: the specifier and its comma.
        if (/^type\s/.test(n.text())) {
          const next = n.next();
          cuts.push([n.range().start.index, (next?.kind() as string | undefined) === ',' ? next!.range().end.index : n.range().end.index]);
          return;
        }
        break;
      case 'as_expression':
      case 'satisfies_expression': {
        // x as T: keep x, blank from `as` on.
        const kw = children.find((c) => (c.kind() as string) === 'as' || (c.kind() as string) === 'satisfies');
        if (kw) cuts.push([kw.range().start.index, n.range().end.index]);
        const v = visit(children[0]!);
        if (v) return v;
        return;
      }
      case 'non_null_expression': {
        const bang = children.at(-1)!;
        cuts.push([bang.range().start.index, bang.range().end.index]);
        break;
      }
    }
    for (const c of children) {
      const k = c.kind() as string;
      // x?: T, x!: T (optional and definite markers), readonly/abstract/declare modifiers.
      if ((k === '?' || k === '!') && /parameter|field_definition|variable_declarator|property_signature/.test(kind)) cut(c);
      else if (!c.isNamed() && MODIFIER_WORDS.has(k) && /class|field_definition|parameter|method_definition/.test(kind)) cut(c);
      else {
        const refused = visit(c);
        if (refused) return refused;
      }
    }
    return undefined;
  };
  const refused = visit(root);
  if (refused) return { unsupported: `TypeScript ${refused} (code, not types) are not stripped` };
  return { code: blank(code, cuts, swaps), clientParams };
}

/** Spaces over each range, newlines kept, and the rewrites in place, so positions hold. */
function blank(code: string, cuts: [number, number][], swaps: [number, string][]): string {
  const chars = code.split('');
  for (const [a, b] of cuts) for (let i = a; i < b; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
  for (const [at, text] of swaps) for (let i = 0; i < text.length; i++) chars[at + i] = text[i]!;
  return chars.join('');
}
