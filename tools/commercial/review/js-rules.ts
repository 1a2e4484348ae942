// The ESLint rules the JavaScript/TypeScript review turns on, as data: for each rule id, the focus it belongs to,
// its severity (set here, so that the engines agree), the weakness it names (CWE) and what to do about it. The
// plugins' rules keep their own ids; this project's rules are `review/<name>` (js-pattern-rules.ts) and the
// source-to-sink check reports `taint/<family>` (taint/table.ts).
import type { Focus, Severity } from './findings.js';

export interface RuleInfo { category: Focus; severity: Severity; cwe?: string; fix: string }

// eslint-plugin-security. detect-object-injection is left out: it flags every obj[variable], nearly all false alarms
// in ordinary code (the source-to-sink check reports a request-controlled key instead).
const SECURITY: Record<string, RuleInfo> = {
  'security/detect-eval-with-expression': { category: 'security', severity: 'critical', cwe: 'CWE-95', fix: 'Do not evaluate strings as code: parse the data (JSON.parse) or dispatch on known values.' },
  'security/detect-child-process': { category: 'security', severity: 'high', cwe: 'CWE-78', fix: 'Use execFile/spawn with a fixed command and an argument array; never build a shell command from input.' },
  'security/detect-non-literal-fs-filename': { category: 'security', severity: 'medium', cwe: 'CWE-22', fix: 'Resolve the path against a fixed base directory and check it stays inside it before opening it.' },
  'security/detect-non-literal-regexp': { category: 'security', severity: 'medium', cwe: 'CWE-1333', fix: 'Escape input before building a RegExp from it, or match it as a plain string.' },
  'security/detect-non-literal-require': { category: 'security', severity: 'medium', cwe: 'CWE-829', fix: 'Require fixed module names; map input to a known list of modules.' },
  'security/detect-unsafe-regex': { category: 'security', severity: 'high', cwe: 'CWE-1333', fix: 'Rewrite the pattern without nested quantifiers (catastrophic backtracking), or bound the input length.' },
  'security/detect-pseudoRandomBytes': { category: 'security', severity: 'high', cwe: 'CWE-338', fix: 'Use crypto.randomBytes.' },
  'security/detect-possible-timing-attacks': { category: 'security', severity: 'medium', cwe: 'CWE-208', fix: 'Compare secrets with crypto.timingSafeEqual.' },
  'security/detect-buffer-noassert': { category: 'security', severity: 'medium', cwe: 'CWE-119', fix: 'Drop the noAssert argument.' },
  'security/detect-new-buffer': { category: 'security', severity: 'medium', cwe: 'CWE-908', fix: 'Use Buffer.from or Buffer.alloc.' },
  'security/detect-no-csrf-before-method-override': { category: 'security', severity: 'medium', cwe: 'CWE-352', fix: 'Register the CSRF middleware before methodOverride.' },
  'security/detect-disable-mustache-escape': { category: 'security', severity: 'high', cwe: 'CWE-116', fix: 'Keep template escaping on.' },
  'security/detect-bidi-characters': { category: 'security', severity: 'high', cwe: 'CWE-1007', fix: 'Remove the bidirectional control characters (Trojan Source).' },
};

// @microsoft/eslint-plugin-sdl, rule by rule (its index would load its own older eslint-plugin-security and
// eslint-plugin-react). Left out: no-inner-html (every innerHTML write, constants included: no-unsanitized's
// property rule reports the unsafe ones) and no-document-write (likewise, no-unsanitized's method rule).
const SDL: Record<string, RuleInfo> = {
  '@microsoft/sdl/no-angular-bypass-sanitizer': { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Do not bypass Angular’s sanitizer (bypassSecurityTrust*); sanitize the value or build the DOM safely.' },
  '@microsoft/sdl/no-angular-sanitization-trusted-urls': { category: 'security', severity: 'medium', cwe: 'CWE-79', fix: 'Keep Angular’s default URL allowlist; do not widen aHrefSanitizationTrustedUrlList/imgSrc… to arbitrary schemes.' },
  '@microsoft/sdl/no-angularjs-bypass-sce': { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Keep Strict Contextual Escaping on; do not mark input as trusted HTML ($sce.trustAs*).' },
  '@microsoft/sdl/no-angularjs-enable-svg': { category: 'security', severity: 'medium', cwe: 'CWE-79', fix: 'Do not enable SVG in AngularJS’s sanitizer.' },
  '@microsoft/sdl/no-angularjs-sanitization-whitelist': { category: 'security', severity: 'medium', cwe: 'CWE-79', fix: 'Keep AngularJS’s default sanitization whitelist.' },
  '@microsoft/sdl/no-cookies': { category: 'security', severity: 'low', cwe: 'CWE-565', fix: 'Keep sensitive data out of script-readable cookies: HttpOnly cookies set by the server, or Web Storage for non-sensitive state.' },
  '@microsoft/sdl/no-document-domain': { category: 'security', severity: 'medium', cwe: 'CWE-346', fix: 'Do not relax the same-origin policy with document.domain; use postMessage with an origin check.' },
  '@microsoft/sdl/no-electron-node-integration': { category: 'security', severity: 'high', cwe: 'CWE-272', fix: 'Keep nodeIntegration off in windows that load web content; expose what the page needs through a preload script with contextIsolation.' },
  '@microsoft/sdl/no-html-method': { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Set text with .text(), or sanitize the HTML (DOMPurify) before .html().' },
  '@microsoft/sdl/no-insecure-random': { category: 'security', severity: 'low', cwe: 'CWE-338', fix: 'If the value guards anything (a token, an id, a secret), use crypto.randomBytes / crypto.getRandomValues / crypto.randomUUID.' },
  '@microsoft/sdl/no-insecure-url': { category: 'security', severity: 'low', cwe: 'CWE-319', fix: 'Use https:// (or wss://, ftps://): the plain protocol sends the data in clear.' },
  '@microsoft/sdl/no-msapp-exec-unsafe': { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Do not run code with MSApp.execUnsafeLocalFunction: it turns off the HTML sanitizer.' },
  '@microsoft/sdl/no-postmessage-star-origin': { category: 'security', severity: 'medium', cwe: 'CWE-345', fix: 'Name the target origin in postMessage instead of "*".' },
  '@microsoft/sdl/no-unsafe-alloc': { category: 'security', severity: 'low', cwe: 'CWE-908', fix: 'Use Buffer.alloc (zero-filled) unless every byte is written before it is read.' },
  '@microsoft/sdl/no-winjs-html-unsafe': { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Do not use WinJS.Utilities.setInnerHTMLUnsafe and its kin; set text or sanitized HTML.' },
};

const UNSANITIZED: Record<string, RuleInfo> = {
  'no-unsanitized/method': { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Do not pass built HTML to insertAdjacentHTML/document.write/createContextualFragment: sanitize it (DOMPurify.sanitize) or build the DOM with textContent.' },
  'no-unsanitized/property': { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Set textContent, or sanitize the HTML (DOMPurify.sanitize) before assigning innerHTML/outerHTML.' },
};

// eslint-plugin-react's security rules. no-danger is replaced by review/react-dangerous-html, which reports only
// markup that is neither a constant nor sanitized.
const REACT: Record<string, RuleInfo> = {
  'react/jsx-no-script-url': { category: 'security', severity: 'high', cwe: 'CWE-79', fix: 'Do not put javascript: URLs in href/src; use an event handler.' },
  'react/jsx-no-target-blank': { category: 'security', severity: 'low', cwe: 'CWE-1022', fix: 'Add rel="noreferrer" (or "noopener noreferrer") to links that open a new window.' },
  'react/no-danger-with-children': { category: 'correctness', severity: 'medium', fix: 'Give the element either children or dangerouslySetInnerHTML, not both.' },
  'react/iframe-missing-sandbox': { category: 'security', severity: 'low', cwe: 'CWE-1021', fix: 'Give the iframe a sandbox attribute naming only the permissions it needs.' },
};

// ESLint's own. The eval family is kept as a style finding: a constant string evaluated cannot be injected, and an
// evaluated expression is reported as a security finding by eslint-plugin-security and the source-to-sink check.
const CORE: Record<string, RuleInfo> = {
  'no-eval': { category: 'style', severity: 'low', cwe: 'CWE-95', fix: 'Do not evaluate strings as code.' },
  'no-implied-eval': { category: 'style', severity: 'low', cwe: 'CWE-95', fix: 'Pass a function to setTimeout/setInterval, not a string.' },
  'no-new-func': { category: 'style', severity: 'low', cwe: 'CWE-95', fix: 'Do not build functions from strings.' },
  'no-debugger': { category: 'correctness', severity: 'medium', fix: 'Remove the debugger statement.' },
  'no-dupe-keys': { category: 'correctness', severity: 'high', fix: 'Remove or rename the duplicate key: the last one silently wins.' },
  'no-unreachable': { category: 'correctness', severity: 'medium', fix: 'Remove the unreachable code or fix the control flow before it.' },
  'no-fallthrough': { category: 'correctness', severity: 'medium', fix: 'End the case with break/return, or mark the fall-through with a comment.' },
  'no-self-compare': { category: 'correctness', severity: 'medium', fix: 'Compare with the intended value (Number.isNaN for NaN checks).' },
  'use-isnan': { category: 'correctness', severity: 'high', fix: 'Use Number.isNaN(value).' },
  'valid-typeof': { category: 'correctness', severity: 'high', fix: 'Compare typeof with a valid type name.' },
  'no-cond-assign': { category: 'correctness', severity: 'medium', fix: 'Use === in the condition, or move the assignment out of it.' },
  'no-unsafe-finally': { category: 'correctness', severity: 'high', fix: 'Do not return or throw from finally.' },
  'no-unsafe-negation': { category: 'correctness', severity: 'high', fix: 'Put the negation around the whole expression: !(key in obj).' },
  'no-compare-neg-zero': { category: 'correctness', severity: 'medium', fix: 'Use Object.is(x, -0).' },
  'no-await-in-loop': { category: 'performance', severity: 'low', fix: 'Start the independent calls together and await Promise.all.' },
  eqeqeq: { category: 'style', severity: 'low', fix: 'Use === and !== .' },
  'no-var': { category: 'style', severity: 'low', fix: 'Use let or const.' },
  'prefer-const': { category: 'style', severity: 'info', fix: 'Use const for a binding never reassigned.' },
};

export const PLUGIN_RULES: Record<string, RuleInfo> = { ...SECURITY, ...SDL, ...UNSANITIZED, ...REACT, ...CORE };
