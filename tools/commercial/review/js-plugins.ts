// The ESLint plugins of the JavaScript/TypeScript review, loaded rule by rule where a plugin's index would load more
// than is used (@microsoft/eslint-plugin-sdl's index loads its own older eslint-plugin-security and
// eslint-plugin-react; eslint-plugin-react's loads a hundred rules), and the flat config that turns on exactly the
// rules of js-rules.ts and this project's own (js-pattern-rules.ts).
import { createRequire } from 'node:module';
import type { Linter, Rule } from 'eslint';
import security from 'eslint-plugin-security';
import unsanitized from 'eslint-plugin-no-unsanitized';
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
 * no-insecure-random on `require(name)`) loses that node, instead of failing the whole review.
 */
function guarded<P extends { rules: Record<string, unknown> }>(plugin: P): P {
  const rules = Object.fromEntries(
    Object.entries(plugin.rules).map(([name, r]) => {
      const rule = r as Rule.RuleModule;
      const create = (context: Rule.RuleContext): Rule.RuleListener => {
        const listeners = rule.create(context) as Record<string, ((...args: unknown[]) => void) | undefined>;
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

/** Options a rule runs with, where its defaults are not what a review wants. */
const OPTIONS: Record<string, unknown[]> = {
  eqeqeq: ['always', { null: 'ignore' }],
};

let config: Linter.Config[] | undefined;
let commonjs: Linter.Config[] | undefined;

/** The same arrays every time: ESLint normalises a config array once per array it is given. */
export function reviewConfig(sourceType: 'module' | 'commonjs'): Linter.Config[] {
  config ??= [
    {
      plugins: {
        security: guarded(security) as never,
        '@microsoft/sdl': guarded(pluginOf('@microsoft/sdl', '@microsoft/eslint-plugin-sdl/lib/rules')) as never,
        'no-unsanitized': guarded(unsanitized) as never,
        react: guarded(pluginOf('react', 'eslint-plugin-react/lib/rules')) as never,
        review: guarded(reviewPlugin) as never,
      },
      languageOptions: { ecmaVersion: 'latest', sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
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
