// gitleaks' default rule set (gitleaks-rules.json, rebuilt from upstream's config/gitleaks.toml by
// scripts/quality/gitleaks-rules.ts; MIT, LICENSE.gitleaks), read once; each rule compiled on its first use: its RE2
// regex translated to JavaScript, its allowlist regexes joined as gitleaks joins them. Keywords lower-cased for the
// prefilter.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../../../../src/paths.js';
import { anchorOf, compileRe2, leadingLazyPrefix, re2ToJs, type Anchor, type PrefixStep } from './re2-to-js.js';
import { parseRe2 } from './re2.js';

export interface AllowlistData {
  description?: string;
  condition?: 'AND' | 'OR';
  regexTarget?: 'secret' | 'match' | 'line';
  regexes?: string[];
  stopwords?: string[];
  paths?: string[];
}

export interface RuleData {
  id: string;
  /** The rules/*.go file upstream defines it in: the provider family (aws, github, generic…). */
  provider: string;
  description: string;
  regex?: string;
  secretGroup?: number;
  entropy?: number;
  keywords: string[];
  path?: string;
  allowlists?: AllowlistData[];
}

export interface RuleSetData {
  source: { repo: string; commit: string; path: string; license: string };
  providers: Record<string, string>;
  allowlist: AllowlistData;
  rules: RuleData[];
}

export interface Allowlist {
  and: boolean;
  target: 'secret' | 'match' | 'line';
  regex?: RegExp;
  path?: RegExp;
  stopwords: string[];
}

/** What a rule runs with, compiled on its first use: a text holding none of its keywords never pays for it. */
export interface Matcher {
  /**
   * The regex without its leading lazy prefixes (`prefix`, put back by the scan), global, for gitleaks' find-all;
   * `once` is the whole regex with indices, which re-reads the secret group inside one match as gitleaks does.
   */
  scan?: RegExp;
  prefix: PrefixStep[];
  /** Set for a regex that starts with this word and lets `.*` run: tried (sticky) at the word, in a window (detect.ts). */
  anchor?: Anchor;
  once?: RegExp;
  path?: RegExp;
  allowlists: Allowlist[];
}

export interface Rule {
  id: string;
  provider: string;
  providerName: string;
  description: string;
  secretGroup: number;
  entropy: number;
  keywords: string[];
  generic: boolean;
  matcher: () => Matcher;
}

export interface RuleSet {
  source: RuleSetData['source'];
  rules: Rule[];
  global: Allowlist;
}

/** gitleaks joins an allowlist's patterns into one `(?:a|b|…)` before compiling (a `(?i)` in one reaches the next). */
const joined = (patterns: string[] | undefined): RegExp | undefined => (patterns?.length ? compileRe2(`(?:${patterns.join('|')})`) : undefined);

export function compileAllowlist(a: AllowlistData): Allowlist {
  return {
    and: a.condition === 'AND',
    target: a.regexTarget ?? 'secret',
    regex: joined(a.regexes),
    path: joined(a.paths),
    stopwords: [...new Set((a.stopwords ?? []).map((w) => w.toLowerCase()))],
  };
}

function compileMatcher(r: RuleData): Matcher {
  const tree = r.regex === undefined ? undefined : parseRe2(r.regex);
  const split = tree && leadingLazyPrefix(tree);
  const anchor = tree && anchorOf(tree);
  return {
    scan: split && new RegExp(split.rest.source, anchor ? 'y' : 'g'),
    prefix: split?.steps ?? [],
    anchor,
    once: tree && new RegExp(re2ToJs(tree).source, 'd'),
    path: r.path === undefined ? undefined : compileRe2(r.path),
    allowlists: (r.allowlists ?? []).map(compileAllowlist),
  };
}

export function compileRules(data: RuleSetData): RuleSet {
  const rules = data.rules.map((r): Rule => {
    let matcher: Matcher | undefined;
    return {
      id: r.id,
      provider: r.provider,
      providerName: data.providers[r.provider] ?? r.provider,
      description: r.description,
      secretGroup: r.secretGroup ?? 0,
      entropy: r.entropy ?? 0,
      keywords: [...new Set(r.keywords.map((k) => k.toLowerCase()))],
      generic: r.id.toLowerCase().includes('generic'),
      matcher: () => (matcher ??= compileMatcher(r)),
    };
  });
  return { source: data.source, rules, global: compileAllowlist(data.allowlist) };
}

export const RULES_FILE = path.join(projectRoot(fileURLToPath(import.meta.url)), 'tools', 'commercial', 'review', 'secrets', 'gitleaks-rules.json');

let loaded: RuleSet | undefined;
/** The default rule set, read and compiled on first use. */
export function defaultRules(): RuleSet {
  loaded ??= compileRules(JSON.parse(fs.readFileSync(RULES_FILE, 'utf8')) as RuleSetData);
  return loaded;
}
