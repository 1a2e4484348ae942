// Running the commands the bundle build needs (npm, tar, the mcpb CLI) the same way on macOS, Linux and Windows.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout: the directory holding package.json above scripts/. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The official MCP Bundles CLI's entry, run with this Node so no shell or .cmd shim is involved. */
export const MCPB_CLI = path.join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

/**
 * npm as a command and its leading arguments. Under `npm run`, npm_execpath names npm's own script, run with this
 * Node; otherwise `npm` from PATH (through the shell on Windows, where it is npm.cmd).
 */
function npm(): { command: string; prefix: string[]; shell: boolean } {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.[cm]?js$/.test(execPath)) return { command: process.execPath, prefix: [execPath], shell: false };
  return { command: 'npm', prefix: [], shell: process.platform === 'win32' };
}

export interface RunResult {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs a command to its end; throws naming it when it fails, unless `allowFailure`. */
export function run(command: string, args: string[], options: SpawnSyncOptions & { allowFailure?: boolean; quiet?: boolean } = {}): RunResult {
  const { allowFailure, quiet, ...spawnOptions } = options;
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'inherit'],
    ...spawnOptions,
  });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  const out = { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), status: result.status };
  if (out.status !== 0 && !allowFailure) {
    throw new Error(`${path.basename(command)} ${args.join(' ')} exited with ${out.status}\n${out.stderr}${out.stdout}`.trim());
  }
  return out;
}

export function runNpm(args: string[], options: SpawnSyncOptions & { allowFailure?: boolean; quiet?: boolean } = {}): RunResult {
  const { command, prefix, shell } = npm();
  return run(command, [...prefix, ...args], { shell, ...options });
}

/** `mcpb <args>`; its report goes to this process's output. */
export function runMcpb(args: string[], options: { quiet?: boolean } = {}): RunResult {
  return run(process.execPath, [MCPB_CLI, ...args], { quiet: options.quiet, stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'] });
}
