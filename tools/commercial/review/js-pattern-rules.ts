// This project's own ESLint rules (`review/<name>`), gathered into one plugin, with what each finding says.
import type { Rule } from 'eslint';
import { CONFIG_RULES } from './js-config-rules.js';
import { CRYPTO_RULES } from './js-crypto-rules.js';
import type { RuleInfo } from './js-rules.js';
import { WEB_RULES } from './js-web-rules.js';

const ALL = { ...CRYPTO_RULES, ...CONFIG_RULES, ...WEB_RULES };

export const reviewPlugin: { rules: Record<string, Rule.RuleModule> } = { rules: Object.fromEntries(Object.entries(ALL).map(([k, v]) => [k, v.rule])) };

export const PATTERN_RULES: Record<string, RuleInfo> = Object.fromEntries(Object.entries(ALL).map(([k, v]) => [`review/${k}`, v.info]));
