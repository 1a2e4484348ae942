// This project's rules for the languages ESLint does not read, as tree-sitter queries (the capture @hit, or the
// first capture, is where the finding points). Each rule has one category, for the caller's `focus`.
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
  python: [
    { id: 'python/eval', query: '(call function: (identifier) @hit (#any-of? @hit "eval" "exec"))', severity: 'critical', category: 'security', message: 'eval/exec runs text as code.', fix: 'Parse the data (json.loads, ast.literal_eval) instead of executing it.' },
    { id: 'python/command-injection', query: '(call function: (attribute object: (identifier) @o attribute: (identifier) @a) @hit (#eq? @o "os") (#any-of? @a "system" "popen"))', severity: 'critical', category: 'security', message: 'os.system/os.popen runs a command through the shell.', fix: SHELL_FIX + ' (subprocess.run([...]))' },
    { id: 'python/subprocess-shell', query: '(call function: (attribute object: (identifier) @o) arguments: (argument_list (keyword_argument name: (identifier) @k value: (true))) (#eq? @o "subprocess") (#eq? @k "shell")) @hit', severity: 'high', category: 'security', message: 'subprocess with shell=True.', fix: SHELL_FIX },
    { id: 'python/unsafe-deserialization', query: '(call function: (attribute object: (identifier) @o attribute: (identifier) @a) @hit (#any-of? @o "pickle" "cPickle" "marshal" "shelve") (#any-of? @a "load" "loads" "open"))', severity: 'high', category: 'security', message: 'pickle/marshal can run code while loading.', fix: DESER_FIX },
    { id: 'python/yaml-load', query: '(call function: (attribute object: (identifier) @o attribute: (identifier) @a) @hit arguments: (argument_list) @args (#eq? @o "yaml") (#eq? @a "load"))', severity: 'high', category: 'security', message: 'yaml.load without SafeLoader can build arbitrary objects.', fix: 'Use yaml.safe_load.', check: (n) => !/SafeLoader/.test(n.text) },
    { id: 'python/sql-injection', query: '(call function: (attribute attribute: (identifier) @a) arguments: (argument_list . [(binary_operator) (string (interpolation)) (call function: (attribute attribute: (identifier) @f (#eq? @f "format")))]) (#any-of? @a "execute" "executemany" "raw")) @hit', severity: 'critical', category: 'security', message: 'SQL built from text (concatenation, f-string or format).', fix: SQL_FIX },
    { id: 'python/weak-hash', query: '(call function: (attribute object: (identifier) @o attribute: (identifier) @a) @hit (#eq? @o "hashlib") (#any-of? @a "md5" "sha1"))', severity: 'medium', category: 'security', message: 'MD5/SHA-1 are broken for security uses.', fix: HASH_FIX },
    { id: 'python/tls-verify-disabled', query: '(keyword_argument name: (identifier) @k value: (false) (#eq? @k "verify")) @hit', severity: 'high', category: 'security', message: 'TLS certificate verification is turned off.', fix: TLS_FIX },
    { id: 'python/bare-except', query: '(except_clause) @hit', severity: 'medium', category: 'correctness', message: 'A bare except catches everything, KeyboardInterrupt and SystemExit too, and hides bugs.', fix: 'Catch the exceptions you expect (except ValueError:), or at least except Exception:.', check: (n) => n.namedChildren.filter((c) => c && c.type !== 'comment').length === 1 },
  ],
  go: [
    { id: 'go/sql-injection', query: '(call_expression function: (selector_expression field: (field_identifier) @m) arguments: (argument_list . [(binary_expression) (call_expression function: (selector_expression operand: (identifier) @p field: (field_identifier) @s) (#eq? @p "fmt") (#eq? @s "Sprintf"))]) (#any-of? @m "Query" "QueryRow" "Exec" "QueryContext" "ExecContext")) @hit', severity: 'critical', category: 'security', message: 'SQL built from text (concatenation or Sprintf).', fix: SQL_FIX },
    { id: 'go/command-injection', query: '(call_expression function: (selector_expression operand: (identifier) @o field: (field_identifier) @f) arguments: (argument_list . (interpreted_string_literal) @s) (#eq? @o "exec") (#any-of? @f "Command" "CommandContext") (#match? @s "^\\"(sh|bash|/bin/sh|/bin/bash|cmd)\\"$")) @hit', severity: 'high', category: 'security', message: 'A command run through a shell.', fix: SHELL_FIX },
    { id: 'go/weak-crypto', query: '(import_spec path: (interpreted_string_literal) @hit (#match? @hit "^\\"crypto/(md5|sha1|des|rc4)\\"$"))', severity: 'medium', category: 'security', message: 'A broken hash or cipher is imported.', fix: HASH_FIX },
    { id: 'go/tls-insecure-skip-verify', query: '(keyed_element (literal_element (identifier) @k) (literal_element (true)) (#eq? @k "InsecureSkipVerify")) @hit', severity: 'high', category: 'security', message: 'InsecureSkipVerify turns TLS verification off.', fix: TLS_FIX },
  ],
  java: [
    { id: 'java/sql-injection', query: '(method_invocation name: (identifier) @m arguments: (argument_list . (binary_expression)) (#any-of? @m "executeQuery" "executeUpdate" "execute" "prepareStatement" "addBatch")) @hit', severity: 'critical', category: 'security', message: 'SQL built by concatenation.', fix: SQL_FIX + ' (PreparedStatement with ?)' },
    { id: 'java/command-injection', query: '(method_invocation object: (method_invocation name: (identifier) @g) name: (identifier) @e (#eq? @g "getRuntime") (#eq? @e "exec")) @hit', severity: 'high', category: 'security', message: 'Runtime.exec runs a command line.', fix: SHELL_FIX + ' (ProcessBuilder with a list)' },
    { id: 'java/unsafe-deserialization', query: '(object_creation_expression type: (type_identifier) @hit (#eq? @hit "ObjectInputStream"))', severity: 'high', category: 'security', message: 'Java deserialisation of a stream can run code (gadget chains).', fix: DESER_FIX + ' (or an ObjectInputFilter allow-list)' },
    { id: 'java/weak-crypto', query: '(method_invocation object: (identifier) @o name: (identifier) @n arguments: (argument_list . (string_literal) @hit) (#any-of? @o "MessageDigest" "Cipher") (#eq? @n "getInstance") (#match? @hit "MD5|MD2|SHA-?1\\"|SHA1|DES|RC4|ECB"))', severity: 'medium', category: 'security', message: 'A broken hash, cipher or mode.', fix: HASH_FIX },
    { id: 'java/trust-all-certificates', query: '(method_declaration name: (identifier) @n body: (block) @hit (#eq? @n "checkServerTrusted"))', severity: 'high', category: 'security', message: 'A TrustManager that accepts every certificate.', fix: TLS_FIX, check: empty },
    { id: 'java/empty-catch', query: '(catch_clause body: (block) @hit)', severity: 'medium', category: 'correctness', message: 'An exception is caught and ignored.', fix: 'Handle the exception, log it, or rethrow it.', check: empty },
  ],
  rust: [
    { id: 'rust/tls-verify-disabled', query: '(call_expression function: (field_expression field: (field_identifier) @f) arguments: (arguments (boolean_literal) @b) (#any-of? @f "danger_accept_invalid_certs" "danger_accept_invalid_hostnames") (#eq? @b "true")) @hit', severity: 'high', category: 'security', message: 'TLS certificate or host name verification is turned off.', fix: TLS_FIX },
    { id: 'rust/command-injection', query: '(call_expression function: (scoped_identifier path: (identifier) @p name: (identifier) @n) arguments: (arguments . (string_literal) @s) (#eq? @p "Command") (#eq? @n "new") (#match? @s "^\\"(sh|bash|/bin/sh|cmd)\\"$")) @hit', severity: 'high', category: 'security', message: 'A command run through a shell.', fix: SHELL_FIX },
    { id: 'rust/weak-hash', query: '(use_declaration argument: (_) @hit (#match? @hit "^(md5|sha1|md-5)(::|$)"))', severity: 'medium', category: 'security', message: 'A broken hash is used.', fix: HASH_FIX },
    { id: 'rust/unsafe-block', query: '(unsafe_block) @hit', severity: 'low', category: 'security', message: 'An unsafe block: memory safety rests on this code.', fix: 'Keep it as small as possible and document the invariant it relies on (// SAFETY: …).' },
    { id: 'rust/unwrap', query: '(call_expression function: (field_expression field: (field_identifier) @hit) (#eq? @hit "unwrap"))', severity: 'low', category: 'correctness', message: 'unwrap() panics on an error or None.', fix: 'Propagate the error with ? or handle the None/Err case.' },
  ],
  ruby: [
    { id: 'ruby/eval', query: '(call method: (identifier) @hit (#any-of? @hit "eval" "instance_eval" "class_eval"))', severity: 'critical', category: 'security', message: 'eval runs text as code.', fix: 'Dispatch on known values (public_send with an allow-list) instead of evaluating text.' },
    { id: 'ruby/command-injection', query: '(call method: (identifier) @hit arguments: (argument_list . (string (interpolation))) (#any-of? @hit "system" "exec" "spawn" "popen"))', severity: 'critical', category: 'security', message: 'A shell command built by interpolation.', fix: SHELL_FIX + ' (system("cmd", arg))' },
    { id: 'ruby/command-injection', query: '(subshell (interpolation)) @hit', severity: 'critical', category: 'security', message: 'A backtick command built by interpolation.', fix: SHELL_FIX },
    { id: 'ruby/unsafe-deserialization', query: '(call receiver: (constant) @r method: (identifier) @m (#any-of? @r "Marshal" "YAML") (#any-of? @m "load" "restore" "unsafe_load")) @hit', severity: 'high', category: 'security', message: 'Marshal/YAML.load can build arbitrary objects.', fix: DESER_FIX + ' (YAML.safe_load)' },
    { id: 'ruby/sql-injection', query: '(call method: (identifier) @m arguments: (argument_list . (string (interpolation))) (#any-of? @m "where" "find_by_sql" "execute" "exec_query" "order" "select")) @hit', severity: 'critical', category: 'security', message: 'SQL built by interpolation.', fix: SQL_FIX + ' (where("name = ?", name))' },
    { id: 'ruby/tls-verify-disabled', query: '(scope_resolution name: (constant) @hit (#eq? @hit "VERIFY_NONE"))', severity: 'high', category: 'security', message: 'TLS verification is turned off.', fix: TLS_FIX },
    { id: 'ruby/bare-rescue', query: '(rescue) @hit', severity: 'low', category: 'correctness', message: 'A bare rescue hides every StandardError.', fix: 'Rescue the errors you expect.', check: (n) => !n.namedChildren.some((c) => c?.type === 'exceptions') },
  ],
  php: [
    { id: 'php/eval', query: '(function_call_expression function: (name) @hit (#any-of? @hit "eval" "assert" "create_function"))', severity: 'critical', category: 'security', message: 'Text run as code.', fix: 'Do not evaluate text; dispatch on known values.' },
    { id: 'php/command-injection', query: '(function_call_expression function: (name) @hit arguments: (arguments . (argument [(variable_name) (binary_expression) (encapsed_string)])) (#any-of? @hit "system" "exec" "shell_exec" "passthru" "popen" "proc_open"))', severity: 'critical', category: 'security', message: 'A shell command built from variables.', fix: SHELL_FIX + ' (escapeshellarg at the very least)' },
    { id: 'php/unsafe-deserialization', query: '(function_call_expression function: (name) @hit (#eq? @hit "unserialize"))', severity: 'high', category: 'security', message: 'unserialize on data can build arbitrary objects (object injection).', fix: DESER_FIX + ' (json_decode)' },
    // Two rules, not one alternation: a query's predicates hold for the whole pattern, whichever branch matched.
    { id: 'php/sql-injection', query: '(function_call_expression function: (name) @f arguments: (arguments (argument [(binary_expression) (encapsed_string)])) (#any-of? @f "mysqli_query" "mysql_query" "pg_query")) @hit', severity: 'critical', category: 'security', message: 'SQL built from variables.', fix: SQL_FIX + ' (prepare + bind)', check: (n) => /\$\w/.test(n.childForFieldName('arguments')?.text ?? '') },
    { id: 'php/sql-injection', query: '(member_call_expression name: (name) @f arguments: (arguments . (argument [(binary_expression) (encapsed_string)])) (#any-of? @f "query" "exec")) @hit', severity: 'critical', category: 'security', message: 'SQL built from variables.', fix: SQL_FIX + ' (prepare + bind)', check: (n) => /\$\w/.test(n.childForFieldName('arguments')?.text ?? '') },
    { id: 'php/weak-hash', query: '(function_call_expression function: (name) @hit (#any-of? @hit "md5" "sha1"))', severity: 'medium', category: 'security', message: 'MD5/SHA-1 are broken for security uses.', fix: HASH_FIX + ' (password_hash for passwords)' },
    { id: 'php/tls-verify-disabled', query: '(function_call_expression function: (name) @f arguments: (arguments (argument (name) @o) . (argument) @v) (#eq? @f "curl_setopt") (#any-of? @o "CURLOPT_SSL_VERIFYPEER" "CURLOPT_SSL_VERIFYHOST")) @hit', severity: 'high', category: 'security', message: 'cURL TLS verification is turned off.', fix: TLS_FIX, check: (n) => /,\s*(false|0)\s*\)\s*$/i.test(n.text) },
  ],
  csharp: [
    { id: 'csharp/sql-injection', query: '(object_creation_expression type: (identifier) @t arguments: (argument_list . (argument [(binary_expression) (interpolated_string_expression)])) (#any-of? @t "SqlCommand" "SqliteCommand" "NpgsqlCommand" "MySqlCommand")) @hit', severity: 'critical', category: 'security', message: 'SQL built from text.', fix: SQL_FIX + ' (cmd.Parameters.AddWithValue)' },
    { id: 'csharp/command-injection', query: '(invocation_expression function: (member_access_expression expression: (identifier) @o name: (identifier) @n) arguments: (argument_list . (argument [(binary_expression) (interpolated_string_expression) (identifier)])) (#eq? @o "Process") (#eq? @n "Start")) @hit', severity: 'high', category: 'security', message: 'A process started from text built at run time.', fix: SHELL_FIX + ' (ProcessStartInfo.ArgumentList)' },
    { id: 'csharp/unsafe-deserialization', query: '(object_creation_expression type: (identifier) @hit (#any-of? @hit "BinaryFormatter" "NetDataContractSerializer" "LosFormatter" "SoapFormatter" "ObjectStateFormatter"))', severity: 'critical', category: 'security', message: 'This formatter can run code while deserialising.', fix: DESER_FIX + ' (System.Text.Json)' },
    { id: 'csharp/tls-validation-disabled', query: '(assignment_expression left: (member_access_expression name: (identifier) @n) right: (lambda_expression body: (boolean_literal) @b) (#any-of? @n "ServerCertificateValidationCallback" "ServerCertificateCustomValidationCallback") (#eq? @b "true")) @hit', severity: 'high', category: 'security', message: 'Every server certificate is accepted.', fix: TLS_FIX },
    { id: 'csharp/weak-crypto', query: '(invocation_expression function: (member_access_expression expression: (identifier) @hit name: (identifier) @n) (#any-of? @hit "MD5" "SHA1" "DES" "TripleDES" "RC2") (#eq? @n "Create"))', severity: 'medium', category: 'security', message: 'A broken hash or cipher.', fix: HASH_FIX },
    { id: 'csharp/empty-catch', query: '(catch_clause body: (block) @hit)', severity: 'medium', category: 'correctness', message: 'An exception is caught and ignored.', fix: 'Handle the exception, log it, or rethrow it.', check: empty },
  ],
  shell: [
    { id: 'shell/eval', query: '(command name: (command_name) @hit (#eq? @hit "eval"))', severity: 'high', category: 'security', message: 'eval runs text as a command.', fix: 'Call the command directly with quoted arguments; use arrays for argument lists.' },
    { id: 'shell/curl-pipe-shell', query: '(pipeline (command name: (command_name) @a) . (command name: (command_name) @b) (#any-of? @a "curl" "wget") (#any-of? @b "sh" "bash" "zsh")) @hit', severity: 'high', category: 'security', message: 'A downloaded script is run unseen.', fix: 'Download to a file, verify its checksum or signature, then run it.' },
    { id: 'shell/tls-verify-disabled', query: '(command name: (command_name) @n argument: (word) @hit (#any-of? @n "curl" "wget") (#any-of? @hit "-k" "--insecure" "--no-check-certificate"))', severity: 'high', category: 'security', message: 'TLS verification is turned off.', fix: TLS_FIX },
    { id: 'shell/world-writable', query: '(command name: (command_name) @n argument: [(word) (number)] @hit (#eq? @n "chmod") (#match? @hit "^[0-7]?777$"))', severity: 'medium', category: 'security', message: 'chmod 777 makes the file writable by everyone.', fix: 'Grant only what is needed (755 for programs, 644 for files).' },
    { id: 'shell/unquoted-variable', query: '(command argument: (simple_expansion) @hit)', severity: 'low', category: 'correctness', message: 'An unquoted variable is split on spaces and expanded as a glob.', fix: 'Quote it: "$var".' },
  ],
};
