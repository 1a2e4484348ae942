// This project's rules for Rust and C#, as tree-sitter queries (the capture @hit, or the first capture, is where the
// finding points): no ast-grep language pack is installed for them. The other languages' rules are ast-grep YAML
// files under rules/ (ast-grep.ts). Each rule has one category, for the caller's `focus`.
import type * as TS from '@vscode/tree-sitter-wasm';
import type { Focus, Severity } from './findings.js';
import type { Language } from './languages.js';

export interface Rule {
  id: string;
  query: string;
  severity: Severity;
  category: Focus;
  message: string;
  fix: string;
  /** A further test of the node the query found. */
  check?: (node: TS.Node) => boolean;
}

const empty = (n: TS.Node) => n.namedChildren.filter((c) => c && c.type !== 'comment').length === 0;
const SQL_FIX = 'Pass the values as query parameters (placeholders), never by building the SQL text.';
const SHELL_FIX = 'Run the program directly with an argument list, never through a shell with text built from input.';
const DESER_FIX = 'Do not deserialise untrusted data with a format that can build arbitrary objects: use JSON and validate it.';
const TLS_FIX = 'Keep certificate and host name verification on; trust a private CA explicitly if you need one.';
const HASH_FIX = 'Use SHA-256 or better (and a password hash such as bcrypt/argon2 for passwords); AES-GCM for encryption.';

export const RULES: Partial<Record<Language, Rule[]>> = {
  rust: [
    { id: 'rust/tls-verify-disabled', query: '(call_expression function: (field_expression field: (field_identifier) @f) arguments: (arguments (boolean_literal) @b) (#any-of? @f "danger_accept_invalid_certs" "danger_accept_invalid_hostnames") (#eq? @b "true")) @hit', severity: 'high', category: 'security', message: 'TLS certificate or host name verification is turned off.', fix: TLS_FIX },
    { id: 'rust/command-injection', query: '(call_expression function: (scoped_identifier path: (identifier) @p name: (identifier) @n) arguments: (arguments . (string_literal) @s) (#eq? @p "Command") (#eq? @n "new") (#match? @s "^\\"(sh|bash|/bin/sh|cmd)\\"$")) @hit', severity: 'high', category: 'security', message: 'A command run through a shell.', fix: SHELL_FIX },
    { id: 'rust/weak-hash', query: '(use_declaration argument: (_) @hit (#match? @hit "^(md5|sha1|md-5)(::|$)"))', severity: 'medium', category: 'security', message: 'A broken hash is used.', fix: HASH_FIX },
    { id: 'rust/unsafe-block', query: '(unsafe_block) @hit', severity: 'low', category: 'security', message: 'An unsafe block: memory safety rests on this code.', fix: 'Keep it as small as possible and document the invariant it relies on (// SAFETY: …).' },
    { id: 'rust/unwrap', query: '(call_expression function: (field_expression field: (field_identifier) @hit) (#eq? @hit "unwrap"))', severity: 'low', category: 'correctness', message: 'unwrap() panics on an error or None.', fix: 'Propagate the error with ? or handle the None/Err case.' },
  ],
  csharp: [
    { id: 'csharp/sql-injection', query: '(object_creation_expression type: (identifier) @t arguments: (argument_list . (argument [(binary_expression) (interpolated_string_expression)])) (#any-of? @t "SqlCommand" "SqliteCommand" "NpgsqlCommand" "MySqlCommand")) @hit', severity: 'critical', category: 'security', message: 'SQL built from text.', fix: SQL_FIX + ' (cmd.Parameters.AddWithValue)' },
    { id: 'csharp/command-injection', query: '(invocation_expression function: (member_access_expression expression: (identifier) @o name: (identifier) @n) arguments: (argument_list . (argument [(binary_expression) (interpolated_string_expression) (identifier)])) (#eq? @o "Process") (#eq? @n "Start")) @hit', severity: 'high', category: 'security', message: 'A process started from text built at run time.', fix: SHELL_FIX + ' (ProcessStartInfo.ArgumentList)' },
    { id: 'csharp/unsafe-deserialization', query: '(object_creation_expression type: (identifier) @hit (#any-of? @hit "BinaryFormatter" "NetDataContractSerializer" "LosFormatter" "SoapFormatter" "ObjectStateFormatter"))', severity: 'critical', category: 'security', message: 'This formatter can run code while deserialising.', fix: DESER_FIX + ' (System.Text.Json)' },
    { id: 'csharp/tls-validation-disabled', query: '(assignment_expression left: (member_access_expression name: (identifier) @n) right: (lambda_expression body: (boolean_literal) @b) (#any-of? @n "ServerCertificateValidationCallback" "ServerCertificateCustomValidationCallback") (#eq? @b "true")) @hit', severity: 'high', category: 'security', message: 'Every server certificate is accepted.', fix: TLS_FIX },
    { id: 'csharp/weak-crypto', query: '(invocation_expression function: (member_access_expression expression: (identifier) @hit name: (identifier) @n) (#any-of? @hit "MD5" "SHA1" "DES" "TripleDES" "RC2") (#eq? @n "Create"))', severity: 'medium', category: 'security', message: 'A broken hash or cipher.', fix: HASH_FIX },
    { id: 'csharp/empty-catch', query: '(catch_clause body: (block) @hit)', severity: 'medium', category: 'correctness', message: 'An exception is caught and ignored.', fix: 'Handle the exception, log it, or rethrow it.', check: empty },
  ],
};
