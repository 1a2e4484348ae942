// The pattern rules as data: YAML files in ast-grep's own rule format, one file per vulnerability class and language
// (rules/<language>/<class>.yml, several rules in a file as YAML documents separated by `---`). Utility rules that
// several classes share (what a constant is, what request data is) live in rules/<language>/utils/*.yml, as
// ast-grep's global utility rules do (`id` and `rule`); a rule gets the ones it names (`matches:`), and its own
// `utils` win over them. Read and checked once when the engine loads: a bad file stops it with the file's name,
// never a review that silently skips a rule.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse, registerDynamicLanguage, type DynamicLangRegistrations, type NapiConfig } from '@ast-grep/napi';
import { parseAllDocuments } from 'yaml';
import { FOCUSES, SEVERITIES, type Focus, type Severity } from './findings.js';

/** The languages the ast-grep packs parse, by this service's name, with ast-grep's name for each. */
export const AST_GREP_LANGUAGES = { python: 'python', go: 'go', java: 'java', php: 'php', ruby: 'ruby', shell: 'bash' } as const;
export type AstGrepLanguage = keyof typeof AST_GREP_LANGUAGES;
export const isAstGrepLanguage = (l: string): l is AstGrepLanguage => Object.hasOwn(AST_GREP_LANGUAGES, l);

let registered = false;
/** Loads the packs' prebuilt parsers into ast-grep, once per thread (each pack names its parser's library). */
export function registerLanguages(): void {
  if (registered) return;
  const require = createRequire(import.meta.url);
  const packs: DynamicLangRegistrations = {};
  for (const name of Object.values(AST_GREP_LANGUAGES)) packs[name] = require(`@ast-grep/lang-${name}`) as DynamicLangRegistrations[string];
  registerDynamicLanguage(packs);
  registered = true;
}

export interface PatternRule {
  id: string;
  language: AstGrepLanguage;
  /** The vulnerability class: the rule file's name (sql-injection, weak-crypto…). */
  class: string;
  severity: Severity;
  category: Focus;
  cwe?: string;
  message: string;
  /** What to do about it (the rule's `note`). */
  note: string;
  /** ast-grep's rewrite template ($VAR, $$$VARS), where the rule offers an exact edit. */
  fix?: string;
  config: NapiConfig;
  file: string;
}

export class RuleFileError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`Bad review rule file ${file}: ${detail}`);
  }
}

const TOP_KEYS = new Set(['id', 'language', 'severity', 'message', 'note', 'fix', 'metadata', 'rule', 'constraints', 'utils', 'url']);
// ast-grep's own severities; the finer level a finding carries is metadata.severity, which must agree with it.
const AST_GREP_SEVERITY: Record<Severity, string[]> = { critical: ['error'], high: ['error'], medium: ['warning'], low: ['warning', 'info'], info: ['info', 'hint'] };

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every rule under `dir` (one folder per language), checked; throws RuleFileError naming the first bad file. */
export function loadRules(dir: string): Record<AstGrepLanguage, PatternRule[]> {
  registerLanguages();
  const out = Object.fromEntries(Object.keys(AST_GREP_LANGUAGES).map((l) => [l, [] as PatternRule[]])) as Record<AstGrepLanguage, PatternRule[]>;
  const ids = new Set<string>();
  for (const language of fs.readdirSync(dir).sort()) {
    const folder = path.join(dir, language);
    if (!fs.statSync(folder).isDirectory()) continue;
    const where = path.relative(path.dirname(dir), folder);
    if (!isAstGrepLanguage(language)) throw new RuleFileError(where, `"${language}" is not a language the ast-grep engine parses (${Object.keys(AST_GREP_LANGUAGES).join(', ')}).`);
    const shared = fs.existsSync(path.join(folder, UTILS_DIR)) ? readUtilFiles(path.join(folder, UTILS_DIR), path.join(where, UTILS_DIR), language) : {};
    for (const name of fs.readdirSync(folder).sort()) {
      if (name === UTILS_DIR) continue;
      const file = path.join(where, name);
      if (!name.endsWith('.yml')) throw new RuleFileError(file, 'rule files end in .yml.');
      for (const rule of readRuleFile(path.join(folder, name), file, language, shared)) {
        if (ids.has(rule.id)) throw new RuleFileError(file, `rule id "${rule.id}" is used twice.`);
        ids.add(rule.id);
        out[language].push(rule);
      }
    }
  }
  return out;
}

/** The rules of one file: parsed, each field checked, and each rule compiled once by ast-grep. */
export function readRuleFile(fullPath: string, file: string, language: AstGrepLanguage, shared: Utils = {}): PatternRule[] {
  const docs = yamlDocs(fullPath, file);
  const cls = path.basename(file, '.yml');
  return docs.map(({ doc }, i) => {
    try {
      return checkRule(doc, language, cls, file, shared);
    } catch (e) {
      throw new RuleFileError(file, `${typeof doc.id === 'string' ? doc.id : `rule ${i + 1}`}: ${(e as Error).message}`);
    }
  });
}

type Utils = Record<string, unknown>;
/** The folder of a language's shared utility rules. */
const UTILS_DIR = 'utils';
const UTIL_KEYS = new Set(['id', 'language', 'rule', 'utils']);

/** A file's YAML documents, each a mapping; `at` names the document in errors when there are several. */
function yamlDocs(fullPath: string, file: string): { doc: Doc; at: string }[] {
  const docs = parseAllDocuments(fs.readFileSync(fullPath, 'utf8'));
  if (!Array.isArray(docs) || docs.length === 0) throw new RuleFileError(file, 'no rule in it.');
  return docs.map((d, i) => {
    const at = docs.length > 1 ? ` (rule ${i + 1})` : '';
    if (d.errors.length > 0) throw new RuleFileError(file, `YAML${at}: ${d.errors[0]!.message}`);
    const doc: unknown = d.toJS();
    if (!isObject(doc)) throw new RuleFileError(file, `rule${at} is not a mapping.`);
    return { doc, at };
  });
}

/** A language's shared utility rules: `id` and `rule` (and `utils` of their own, shared too), each id once. */
function readUtilFiles(folder: string, where: string, language: AstGrepLanguage): Utils {
  const out: Utils = {};
  const add = (file: string, id: string, rule: unknown) => {
    if (Object.hasOwn(out, id)) throw new RuleFileError(file, `utility "${id}" is defined twice.`);
    if (!isObject(rule)) throw new RuleFileError(file, `utility "${id}": its rule must be a mapping.`);
    out[id] = rule;
  };
  for (const name of fs.readdirSync(folder).sort()) {
    const file = path.join(where, name);
    if (!name.endsWith('.yml')) throw new RuleFileError(file, 'rule files end in .yml.');
    for (const { doc, at } of yamlDocs(path.join(folder, name), file)) {
      const unknown = Object.keys(doc).filter((k) => !UTIL_KEYS.has(k));
      if (unknown.length) throw new RuleFileError(file, `utility${at}: unknown key ${unknown.join(', ')}.`);
      if (typeof doc.id !== 'string' || !/^[\w-]+$/.test(doc.id)) throw new RuleFileError(file, `utility${at}: "id" must be a name (letters, digits, - and _).`);
      if (doc.language !== undefined && String(doc.language).toLowerCase() !== AST_GREP_LANGUAGES[language]) throw new RuleFileError(file, `${doc.id}: language must be ${AST_GREP_LANGUAGES[language]} (the folder's).`);
      add(file, doc.id, doc.rule);
      if (doc.utils !== undefined) {
        if (!isObject(doc.utils)) throw new RuleFileError(file, `${doc.id}: "utils" must be a mapping.`);
        for (const [id, rule] of Object.entries(doc.utils)) add(file, id, rule);
      }
    }
  }
  return out;
}

/** The shared utilities a rule names, directly or through other shared ones, less those it defines itself. */
function sharedUtilsFor(rule: unknown, own: Utils, shared: Utils, constraints?: unknown): Utils {
  const out: Utils = {};
  const visit = (node: unknown) => {
    for (const m of JSON.stringify(node).matchAll(/"matches":"([\w-]+)"/g)) {
      const id = m[1]!;
      if (Object.hasOwn(own, id) || Object.hasOwn(out, id) || !Object.hasOwn(shared, id)) continue;
      out[id] = shared[id];
      visit(shared[id]);
    }
  };
  visit([rule, own, constraints ?? null]);
  return out;
}

function checkRule(doc: Doc, language: AstGrepLanguage, cls: string, file: string, shared: Utils = {}): PatternRule {
  const unknown = Object.keys(doc).filter((k) => !TOP_KEYS.has(k));
  if (unknown.length) throw new Error(`unknown key ${unknown.join(', ')}.`);
  const text = (k: string) => {
    const v = doc[k];
    if (typeof v !== 'string' || !v.trim()) throw new Error(`"${k}" must be a non-empty string.`);
    return v.trim();
  };
  const id = text('id');
  if (!id.startsWith(`${language}/`)) throw new Error(`the id must start with "${language}/".`);
  if (text('language').toLowerCase() !== AST_GREP_LANGUAGES[language]) throw new Error(`language must be ${AST_GREP_LANGUAGES[language]} (the folder's).`);
  const meta = doc.metadata;
  if (!isObject(meta)) throw new Error('metadata (severity, category, cwe) is missing.');
  const severity = meta.severity as Severity;
  if (!SEVERITIES.includes(severity)) throw new Error(`metadata.severity must be one of ${SEVERITIES.join(', ')}.`);
  if (!AST_GREP_SEVERITY[severity].includes(text('severity'))) throw new Error(`severity "${String(doc.severity)}" disagrees with metadata.severity ${severity} (expected ${AST_GREP_SEVERITY[severity].join(' or ')}).`);
  const category = meta.category as Focus;
  if (!FOCUSES.includes(category)) throw new Error(`metadata.category must be one of ${FOCUSES.join(', ')}.`);
  const cwe = meta.cwe;
  if (cwe !== undefined && (typeof cwe !== 'string' || !/^CWE-\d+$/.test(cwe))) throw new Error('metadata.cwe must look like CWE-89.');
  if (category === 'security' && cwe === undefined) throw new Error('a security rule names its CWE (metadata.cwe).');
  if (doc.fix !== undefined && typeof doc.fix !== 'string') throw new Error('"fix" is a rewrite template (a string).');
  if (!isObject(doc.rule)) throw new Error('"rule" must be a mapping.');
  for (const k of ['constraints', 'utils'] as const) if (doc[k] !== undefined && !isObject(doc[k])) throw new Error(`"${k}" must be a mapping.`);
  const own = (doc.utils ?? {}) as Utils;
  const utils = { ...sharedUtilsFor(doc.rule, own, shared, doc.constraints), ...own };
  const config = { rule: doc.rule, ...(doc.constraints ? { constraints: doc.constraints } : {}), ...(Object.keys(utils).length ? { utils } : {}) } as NapiConfig;
  // ast-grep checks the rule (keys, kinds, regexes, utilities) when it first runs it: run it once on empty code.
  parse(AST_GREP_LANGUAGES[language], '').root().findAll(config);
  return { id, language, class: cls, severity, category, ...(typeof cwe === 'string' ? { cwe } : {}), message: text('message'), note: text('note'), ...(typeof doc.fix === 'string' ? { fix: doc.fix } : {}), config, file };
}

/**
 * The rules of one language as one ast-grep matcher, compiled once per review instead of once per rule: ast-grep
 * builds a rule's matcher (its patterns, regexes and every utility it names) on each search, and the Go rules share
 * large utilities, so compiling them once is most of a review's time. Each rule becomes a utility, tried on every
 * node inside `not: {not: …}` (which keeps its meta-variables to itself, so rules cannot clash) and tagged with its
 * own meta-variable when it matches; `rules[i]` matched a node when the node has `TAG_PREFIX + i`. Utilities with
 * the same definition (and the same definitions under every name they use) are shared between rules; one that a
 * rule redefines (a rule's own `sanitizer`) is kept apart under another name. A rule with a rewrite template
 * (`fix`) needs its meta-variables, so it stays a search of its own (`separate`).
 */
export interface CombinedRules {
  config: NapiConfig;
  rules: PatternRule[];
  separate: PatternRule[];
}
export const TAG_PREFIX = 'AGRULE_';

export function combineRules(rules: PatternRule[]): CombinedRules {
  const together = rules.filter((r) => r.fix === undefined && (r.config as { constraints?: unknown }).constraints === undefined);
  const utils: Utils = {};
  const nameOfSignature = new Map<string, string>();
  together.forEach((r, i) => {
    const own = ((r.config as { utils?: Utils }).utils ?? {}) as Utils;
    const signatures = new Map<string, string>();
    const signature = (id: string, path: string[] = []): string => {
      const known = signatures.get(id);
      if (known) return known;
      // A utility that names itself (directly or not) is kept to this rule.
      if (path.includes(id)) return `cycle:${i}:${id}`;
      const refs = [...new Set([...JSON.stringify(own[id]).matchAll(/"matches":"([\w-]+)"/g)].map((m) => m[1]!))].filter((x) => Object.hasOwn(own, x));
      const sig = `${id}=${JSON.stringify(own[id])}|${refs.map((x) => signature(x, [...path, id])).join('|')}`;
      signatures.set(id, sig);
      return sig;
    };
    const rename = new Map<string, string>();
    for (const id of Object.keys(own)) {
      const sig = signature(id);
      let name = nameOfSignature.get(sig);
      if (!name) {
        name = Object.hasOwn(utils, id) ? `${id}__${i}` : id;
        nameOfSignature.set(sig, name);
        utils[name] = null;
      }
      rename.set(id, name);
    }
    for (const [id, name] of rename) if (utils[name] === null) utils[name] = renameMatches(own[id], rename);
    utils[`${TAG_PREFIX}rule_${i}`] = renameMatches(r.config.rule, rename);
  });
  const tagged = (i: number) => ({ all: [{ not: { not: { matches: `${TAG_PREFIX}rule_${i}` } } }, { pattern: `$${TAG_PREFIX}${i}` }] });
  const config = {
    rule: { all: [{ not: { not: { any: together.map((_, i) => ({ matches: `${TAG_PREFIX}rule_${i}` })) } } }, ...together.map((_, i) => ({ any: [tagged(i), { regex: '^' }] }))] },
    utils,
  } as unknown as NapiConfig;
  return { config, rules: together, separate: rules.filter((r) => !together.includes(r)) };
}

/** A copy of a rule with every `matches` reference renamed as `rename` says. */
function renameMatches(node: unknown, rename: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((x) => renameMatches(x, rename));
  if (!isObject(node)) return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'matches' && typeof v === 'string' ? (rename.get(v) ?? v) : renameMatches(v, rename)]));
}
