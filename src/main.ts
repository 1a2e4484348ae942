#!/usr/bin/env node
// CLI: `agent-gateway serve` (default) runs the HTTP gateway; `agent-gateway mcp` serves MCP over stdio.
import type { Gateway } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './log.js';
import { openDatabase } from './store/open.js';

const USAGE = `agent-gateway — a persistent home for stateless AI agents

Usage:
  agent-gateway [serve]   run the HTTP gateway (REST, MCP Streamable HTTP and SSE)
  agent-gateway mcp       serve the same tools over MCP stdio
  agent-gateway migrate-store --from <sqlite data dir> --to <postgres url>
                          copy a SQLite deployment into an empty PostgreSQL database, and verify it
  agent-gateway --version | --help

Configuration comes from the environment; see README.md.`;

/** The database's threads start while the rest of the gateway's modules load (a tenth of start-up, overlapped). */
async function openGateway(config: Config): Promise<Gateway> {
  const db = openDatabase(config);
  db.catch(() => undefined); // awaited (and reported) by Gateway.create
  const { Gateway } = await import('./app.js');
  return Gateway.create({ config, db });
}

async function serve(config: Config): Promise<void> {
  const started = performance.now();
  const gateway = await openGateway(config);
  const { url, apiUrl } = await gateway.listen();
  gateway.log.info({ url, api_url: apiUrl, data_dir: config.dataDir, ms: Math.round(performance.now() - started) }, 'gateway ready');
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

async function stdio(config: Config): Promise<void> {
  const gateway = await openGateway(config);
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
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await connection.close().catch(() => undefined);
    await gateway.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('close', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
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
  if (cmd === 'serve') return serve(config);
  if (cmd === 'mcp') return stdio(config);
  process.stderr.write(`Unknown command "${cmd}".\n\n${USAGE}\n`);
  process.exit(2);
}

main(process.argv.slice(2)).catch((err) => {
  createLogger('error').fatal({ err }, 'failed to start');
  process.exit(1);
});
