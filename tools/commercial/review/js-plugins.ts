// The ESLint plugins of the JavaScript/TypeScript review, loaded rule by rule where a plugin's index would load more
// than is used (@microsoft/eslint-plugin-sdl's index loads its own older eslint-plugin-security and
// eslint-plugin-react; eslint-plugin-react's loads a hundred rules), and the flat config that turns on exactly the
// rules of js-rules.ts and this project's own (js-pattern-rules.ts).
import { createRequire } from 'node:module';
import type { Linter, Rule } from 'eslint';
import security from 'eslint-plugin-security';
import unsanitized from 'eslint-plugin-no-unsanitized';
import type * as ESTree from 'estree';
import { localNonDomObject } from './js-ast.js';
import { TYPED_SDL_RULES, typedContext } from './js-type-oracle.js';
import { PATTERN_RULES, reviewPlugin } from './js-pattern-rules.js';
import { PLUGIN_RULES } from './js-rules.js';

const require = createRequire(import.meta.url);

/** A plugin made of the named rules of a package's rules directory. */
function pluginOf(prefix: string, dir: string): { rules: Record<string, Rule.RuleModule> } {
  const names = Object.keys(PLUGIN_RULES).filter((id) => id.startsWith(`${prefix}/`)).map((id) => id.slice(prefix.length + 1));
  return { rules: Object.fromEntries(names.map((n) => [n, require(`${dir}/${n}.js`) as Rule.RuleModule])) };
}

/**
 * The same rules, each handler guarded: a rule that throws on a shape of code it did not expect (sdl's
 * no-insecure-random on `require(name)`) loses that node, instead of failing the whole review. `typed`: the
 * plugin's rules that ask for typescript-eslint's type checker are given the file's own types (js-type-oracle.ts).
 */
function guarded<P extends { rules: Record<string, unknown> }>(plugin: P, typed?: ReadonlySet<string>): P {
  const rules = Object.fromEntries(
    Object.entries(plugin.rules).map(([name, r]) => {
      const rule = r as Rule.RuleModule;
      const keep = Object.hasOwn(KEEP_REPORT, name) ? KEEP_REPORT[name] : undefined;
      const create = (context: Rule.RuleContext): Rule.RuleListener => {
        // report(descriptor) or the older report(node, message) that no-unsanitized still uses.
        const report = (...args: unknown[]) => {
          const first = args[0] as { node?: Rule.Node; type?: string } | undefined;
          const node = first?.node ?? (first?.type ? (first as Rule.Node) : undefined);
          if (node && !keep!(node, context)) return;
          (context.report as (...a: unknown[]) => void)(...args);
        };
        const reporting = keep ? (Object.create(context, { report: { value: report } }) as Rule.RuleContext) : context;
        const ctx = typed?.has(name) ? typedContext(name, context, reporting) : reporting;
        const listeners = rule.create(ctx) as Record<string, ((...args: unknown[]) => void) | undefined>;
        return Object.fromEntries(
          Object.entries(listeners).map(([selector, fn]) => [
            selector,
            (...args: unknown[]) => {
              try {
                fn?.(...args);
              } catch {
                // the rule does not cover this node
              }
            },
          ]),
        ) as Rule.RuleListener;
      };
      return [name, { ...rule, create }];
    }),
  );
  return { ...plugin, rules };
}

/** The usual HTML sanitizers and escapers: markup that went through one is not reported by no-unsanitized. */
const HTML_SANITIZERS = [
  'Sanitizer.unwrapSafeHTML', 'unwrapSafeHTML', 'DOMPurify.sanitize', 'dompurify.sanitize', 'purify.sanitize', 'sanitizeHtml', 'sanitizeHTML', 'sanitize',
  'xss', 'filterXSS', 'escapeHtml', 'escapeHTML', 'escape', 'he.encode', 'he.escape', '_.escape', 'validator.escape', 'Handlebars.escapeExpression',
];
const UNSANITIZED_OPTIONS = [{ escape: { taggedTemplates: ['Sanitizer.escapeHTML', 'escapeHTML'], methods: HTML_SANITIZERS } }];

/** Options a rule runs with, where its defaults are not what a review wants. */
const OPTIONS: Record<string, unknown[]> = {
  eqeqeq: ['always', { null: 'ignore' }],
  'no-unsanitized/method': UNSANITIZED_OPTIONS,
  'no-unsanitized/property': UNSANITIZED_OPTIONS,
};

/** The object a DOM rule's report is about: `x` of `x.cookie`, `x.innerHTML = …`, `x.postMessage(…)`. */
function receiverOf(node: Rule.Node): ESTree.Node | undefined {
  if (node.type === 'AssignmentExpression') return node.left.type === 'MemberExpression' ? node.left.object : undefined;
  if (node.type === 'MemberExpression') return node.object;
  if (node.type === 'CallExpression') return node.callee.type === 'MemberExpression' ? node.callee.object : undefined;
  return undefined;
}

/** DOM rules without types: keep the report unless the object is this file's own (see localNonDomObject). */
const onDomObject = (node: Rule.Node, context: Rule.RuleContext) => {
  const r = receiverOf(node);
  return !r || !localNonDomObject(context.sourceCode, r);
};

/**
 * Reports a review leaves out, by rule: sdl's no-insecure-url on a URL that only names something (a JWT issuer,
 * an XML namespace, a JSON schema id) and is never fetched; DOM rules on an object the file itself defines (the
 * type information the rules use under typescript-eslint, which this review cannot run, read from the code instead).
 */
const KEEP_REPORT: Record<string, (node: Rule.Node, context: Rule.RuleContext) => boolean> = {
  'no-cookies': onDomObject,
  'no-document-domain': onDomObject,
  'no-postmessage-star-origin': onDomObject,
  property: onDomObject,
  method: onDomObject,
  'no-insecure-url': (node) => {
    const p = node.parent;
    if (p?.type !== 'Property' || p.value !== node) return true;
    const key = p.key.type === 'Identifier' ? p.key.name : p.key.type === 'Literal' ? String(p.key.value) : '';
    return !/^(iss|issuer|aud|audience|xmlns(:\w+)?|namespace|ns|\$?schema|\$id|id|type|rel|profile)$/i.test(key);
  },
};

// Node's module-scope names, so that rules recognise __dirname and require as the platform's (eslint-plugin-security
// treats path.join(__dirname, 'x') as a fixed path only when __dirname is a known global).
const NODE_GLOBALS = { __dirname: 'readonly', __filename: 'readonly', require: 'readonly', module: 'readonly', exports: 'writable', process: 'readonly', Buffer: 'readonly' } as const;

let config: Linter.Config[] | undefined;
let commonjs: Linter.Config[] | undefined;

/** The same arrays every time: ESLint normalises a config array once per array it is given. */
export function reviewConfig(sourceType: 'module' | 'commonjs'): Linter.Config[] {
  config ??= [
    {
      plugins: {
        security: guarded(security) as never,
        '@microsoft/sdl': guarded(pluginOf('@microsoft/sdl', '@microsoft/eslint-plugin-sdl/lib/rules'), TYPED_SDL_RULES) as never,
        'no-unsanitized': guarded(unsanitized) as never,
        react: guarded(pluginOf('react', 'eslint-plugin-react/lib/rules')) as never,
        review: guarded(reviewPlugin) as never,
      },
      languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: NODE_GLOBALS, parserOptions: { ecmaFeatures: { jsx: true } } },
      // eslint-plugin-react reads the React version from settings, and warns on every run without one.
      settings: { react: { version: '19.0' } },
      rules: Object.fromEntries(
        [...Object.keys(PLUGIN_RULES), ...Object.keys(PATTERN_RULES)].map((id) => [id, OPTIONS[id] ? ['warn', ...OPTIONS[id]] : 'warn']),
      ) as Linter.RulesRecord,
    },
  ];
  if (sourceType === 'module') return config;
  // CommonJS: a script whose top level may `return` (parsed only when the module parse failed).
  commonjs ??= [...config, { languageOptions: { sourceType: 'commonjs' } }];
  return commonjs;
}
