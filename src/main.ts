#!/usr/bin/env node
// CLI: `agent-gateway serve` (default) runs the HTTP gateway; `agent-gateway mcp` serves MCP over stdio.
import type { Gateway } from './app.js';
import type { Config } from './config.js';
import { enableCompileCache, flushCompileCache } from './compile-cache.js';
import { EarlyWriter } from './store/writer-client.js';

const USAGE = `agent-gateway — a persistent home for stateless AI agents

Usage:
  agent-gateway [serve]   run the HTTP gateway (REST, MCP Streamable HTTP and SSE)
  agent-gateway mcp       serve the same tools over MCP stdio
  agent-gateway migrate-store --from <sqlite data dir> --to <postgres url>
                          copy a SQLite deployment into an empty PostgreSQL database, and verify it
  agent-gateway --version | --help

Configuration comes from the environment; see README.md.`;

/**
 * The database opens (on the writer thread started early) and its schema migrates while the rest of the gateway's
 * modules load: a third of start-up on a fresh data dir, overlapped (docs/decisions/startup.md).
 */
async function openGateway(config: Config, early?: EarlyWriter): Promise<Gateway> {
  const { openDatabase, prepareDatabase } = await import('./store/open.js');
  const db = openDatabase(config, early).then((d) => prepareDatabase(d, config));
  db.catch(() => undefined); // awaited (and reported) by Gateway.create
  const { Gateway } = await import('./app.js');
  return Gateway.create({ config, db });
}

async function serve(config: Config, early?: EarlyWriter): Promise<void> {
  const started = performance.now();
  const gateway = await openGateway(config, early);
  const { url, apiUrl } = await gateway.listen();
  gateway.log.info({ url, api_url: apiUrl, data_dir: config.dataDir, ms: Math.round(performance.now() - started) }, 'gateway ready');
  setImmediate(flushCompileCache);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.log.info({ signal }, 'shutting down');
    gateway.close().then(
      () => process.exit(0),
      (err) => {
        gateway.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function stdio(config: Config, early?: EarlyWriter): Promise<void> {
  const gateway = await openGateway(config, early);
  const credentials = {
    bearer: config.stdio.secret,
    apiKey: config.stdio.apiKey,
    ...(config.stdio.revenueKey ? { revenueKey: config.stdio.revenueKey } : {}),
    ip: 'stdio',
    transport: 'mcp' as const,
  };
  if (config.stdio.secret) {
    const caller = await gateway.registry.resolve(credentials);
    if (!caller.agent) gateway.log.warn('AGENT_SECRET does not match any agent; owner tools will answer 403');
    else if (config.stdio.handle && caller.agent.handle !== config.stdio.handle.toLowerCase()) {
      gateway.log.warn({ handle: config.stdio.handle }, 'AGENT_HANDLE does not match the agent of AGENT_SECRET');
    }
  }
  const connection = await gateway.serveMcpStdio(config.mcpToolsets, credentials);
  let stopping = false;
  /** stdin's end is the host done sending, not gone: what it asked is answered first (within the shutdown grace). */
  const shutdown = async (answerFirst: boolean) => {
    if (stopping) return;
    stopping = true;
    if (answerFirst) await connection.allAnswered(config.shutdownGraceMs);
    await connection.close().catch(() => undefined);
    await gateway.close();
    // Written out before the exit, where stdout is asynchronous (a pipe on macOS).
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown(true));
  process.stdin.on('close', () => void shutdown(true));
  process.on('SIGTERM', () => void shutdown(false));
  process.on('SIGINT', () => void shutdown(false));
}

async function main(argv: string[]): Promise<void> {
  const cmd = argv[0] ?? 'serve';
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (cmd === '--version' || cmd === '-v') {
    process.stdout.write('1.6.0\n');
    return;
  }
  if (cmd === 'migrate-store') {
    // Needs only its two arguments, none of the gateway's configuration.
    const { migrateStore } = await import('./cli/migrate-store.js');
    return migrateStore(argv.slice(1));
  }
  // Before the gateway's modules load: they are what a start spends its time on.
  enableCompileCache();
  // serve and mcp: the SQLite writer thread boots while the configuration and the gateway's modules load; it is
  // handed the database file once the configuration names it (and ended if that is PostgreSQL).
  const early = cmd === 'serve' || cmd === 'mcp' ? EarlyWriter.spawn() : undefined;
  const { ConfigError, loadConfig } = await import('./config.js');
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (cmd === 'serve') return serve(config, early);
  if (cmd === 'mcp') return stdio(config, early);
  process.stderr.write(`Unknown command "${cmd}".\n\n${USAGE}\n`);
  process.exit(2);
}

main(process.argv.slice(2)).catch(async (err) => {
  const { createLogger } = await import('./log.js');
  createLogger('error').fatal({ err }, 'failed to start');
  process.exit(1);
});
