// Every setting comes from the environment, parsed and validated once at start-up (README has the table).
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { validateAllowList } from './egress/address-policy.js';
import { ENTITLEMENT_ENV, entitlementSettings, type EntitlementSettings } from './billing/entitlements/config.js';
import { COMMERCIAL_ENV, commercialSettings, type CommercialSettings } from './commerce/config.js';
import { TRACING_ENV, tracingSettings, type TracingSettings } from './tracing/config.js';
import type { RetainedRecord } from './store/retention.js';
import { CACHE_ENV, cacheBounds, type CacheBounds } from './cache-bounds.js';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
/** Days a finished record is kept (src/retention.ts); 0 keeps it for ever. */
const retentionDays = z.coerce.number().int().min(0).max(36_500);
/**
 * How many reverse proxies stand in front of the gateway, each appending to X-Forwarded-For: `true` is one, a number
 * says how many (a CDN in front of nginx is 2), `false` or 0 none.
 */
const proxyHops = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const word = v.trim().toLowerCase();
    if (['', '0', 'false', 'no'].includes(word)) return 0;
    if (['true', 'yes'].includes(word)) return 1;
    if (/^\d+$/.test(word) && Number(word) <= 10) return Number(word);
    ctx.addIssue({ code: 'custom', message: 'must be true, false, or how many proxies stand in front of the gateway (0-10)' });
    return z.NEVER;
  });
const list = z
  .string()
  .default('')
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));
const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .default('')
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const EnvSchema = z.object({
  PORT: port.default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  GATEWAY_DATA_DIR: z.string().min(1).default('./data'),
  GATEWAY_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  GATEWAY_DATABASE_POOL: z.coerce.number().int().min(1).max(200).default(10),
  GATEWAY_DATABASE_PREPARED: z.coerce.number().int().min(0).max(10_000).default(500),
  GATEWAY_RETAIN_A2A_TASKS_DAYS: retentionDays.default(7),
  GATEWAY_RETAIN_JOBS_DAYS: retentionDays.default(30),
  GATEWAY_RETAIN_DELIVERIES_DAYS: retentionDays.default(30),
  GATEWAY_RETAIN_NOTIFICATIONS_DAYS: retentionDays.default(90),
  GATEWAY_RETAIN_HANDOFFS_DAYS: retentionDays.default(30),
  GATEWAY_RETAIN_ANONYMOUS_TEMPLATE_RUNS_DAYS: retentionDays.default(31),
  GATEWAY_A2A_INTERRUPTED_HOURS: z.coerce.number().int().min(1).max(168).default(1),
  GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE: positiveInt.max(100_000).default(60),
  GATEWAY_A2A_ANONYMOUS_MAX_MESSAGE_BYTES: positiveInt.min(1024).default(16 * 1024),
  GATEWAY_RETAIN_A2A_ANONYMOUS_HOURS: z.coerce.number().int().min(1).max(168).default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GATEWAY_EGRESS_ALLOW: list.transform((entries, ctx) => {
    try {
      return validateAllowList(entries);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  }),
  GATEWAY_MCP_TOOLSETS: list,
  GATEWAY_MAX_BODY_BYTES: positiveInt.default(8 * 1024 * 1024),
  GATEWAY_MAX_JSON_DEPTH: positiveInt.min(8).max(256).default(64),
  GATEWAY_ANONYMOUS_CREATES_PER_HOUR: positiveInt.max(1_000_000).default(100),
  GATEWAY_REGISTRATIONS_PER_HOUR: positiveInt.max(1_000_000).default(20),
  GATEWAY_MCP_MAX_SESSIONS: positiveInt.default(1000),
  GATEWAY_MCP_SESSION_IDLE_SECONDS: positiveInt.default(1800),
  GATEWAY_MCP_PAGE_SIZE: positiveInt.max(1000).default(100),
  GATEWAY_MCP_CHANGE_POLL_MS: positiveInt.min(50).max(60_000).default(500),
  GATEWAY_MCP_KEEPALIVE_MS: positiveInt.min(100).max(300_000).default(15_000),
  GATEWAY_MCP_SSE_RETRY_MS: positiveInt.min(10).max(60_000).default(1000),
  GATEWAY_MCP_POLL_AFTER_MS: z.coerce.number().int().min(0).max(3_600_000).default(0),
  GATEWAY_ALLOWED_HOSTS: list,
  GATEWAY_ALLOWED_ORIGINS: list,
  GATEWAY_TRUST_PROXY: proxyHops,
  GATEWAY_OPERATOR_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  GATEWAY_OPERATOR_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  GATEWAY_OPERATOR_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  GATEWAY_SHUTDOWN_GRACE_MS: positiveInt.default(10_000),
  GATEWAY_KEYS_PER_CLIENT_PER_DAY: positiveInt.default(10),
  GATEWAY_MEMORY_MAX_VALUE_BYTES: positiveInt.default(256 * 1024),
  EMBEDDINGS_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_MODEL: z.string().min(1).default('text-embedding-3-small'),
  LLM_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: positiveInt.default(60_000),
  GATEWAY_CHAT_RATE_PER_MINUTE: positiveInt.default(60),
  GATEWAY_MEMORY_MAX_ENTRIES: positiveInt.default(100_000),
  GATEWAY_MEMORY_MAX_BYTES: positiveInt.default(256 * 1024 * 1024),
  GATEWAY_ARTIFACT_MAX_BYTES: positiveInt.default(1024 * 1024 * 1024),
  GATEWAY_AGENT_STORAGE_BYTES: positiveInt.default(2 * 1024 * 1024 * 1024),
  GATEWAY_READER_THREADS: z.coerce.number().int().min(0).max(16).default(Math.min(4, Math.max(1, os.availableParallelism() - 1))),
  GATEWAY_MEMORY_VERSIONS_KEPT: positiveInt.max(10_000).default(50),
  GATEWAY_BROWSE_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
  GATEWAY_BROWSE_TIMEOUT_SECONDS: positiveInt.max(300).default(15),
  GATEWAY_BROWSE_MAX_CHARS: positiveInt.default(100_000),
  GATEWAY_BROWSE_CACHE_BYTES: z.coerce.number().int().min(0).default(32 * 1024 * 1024),
  SEARCH_PROVIDER: z.enum(['searxng', 'brave']).optional(),
  SEARCH_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  SEARCH_API_KEY: z.string().optional(),
  GATEWAY_RESEARCH_MAX_SOURCES: positiveInt.max(20).default(5),
  IMAGE_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  IMAGE_API_KEY: z.string().optional(),
  IMAGE_MODEL: z.string().min(1).default('gpt-image-1'),
  IMAGE_TIMEOUT_SECONDS: positiveInt.max(600).default(120),
  GATEWAY_IMAGE_RENDER_SECONDS: positiveInt.max(300).default(10),
  GATEWAY_VAULT_LOGIN_TTL_SECONDS: positiveInt.min(60).max(7 * 24 * 3600).default(3600),
  X402_NETWORK: z.string().regex(/^eip155:\d+$/, 'must be a CAIP-2 EVM network such as eip155:8453').default('eip155:84532'),
  X402_RPC_URL: z.url({ protocol: /^https?$/ }).optional(),
  X402_ASSET: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a token contract address').optional(),
  X402_ASSET_NAME: z.string().min(1).optional(),
  X402_ASSET_VERSION: z.string().min(1).optional(),
  X402_ASSET_DECIMALS: z.coerce.number().int().min(0).max(36).optional(),
  X402_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key').optional(),
  X402_PAY_TO: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address').optional(),
  X402_MAX_TIMEOUT_SECONDS: positiveInt.max(3600).default(300),
  X402_VERIFY_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  X402_CONFIRMATION_TIMEOUT_SECONDS: positiveInt.max(3600).default(120),
  AGENT_HANDLE: z.string().optional(),
  AGENT_SECRET: z.string().optional(),
  GATEWAY_API_KEY: z.string().optional(),
  GATEWAY_REVENUE_KEY: z.string().optional(),
  ...ENTITLEMENT_ENV,
  ...COMMERCIAL_ENV,
  ...TRACING_ENV,
  ...CACHE_ENV,
});

export type Env = z.input<typeof EnvSchema>;

export type RetentionDays = Record<RetainedRecord, number>;

export interface Config {
  port: number;
  host: string;
  /** Public base used in links, without a trailing slash. */
  baseUrl: string;
  /** True when GATEWAY_BASE_URL was not set and the base follows the bound port. */
  baseUrlFromListen: boolean;
  dataDir: string;
  /** PostgreSQL (GATEWAY_DATABASE_URL) shared by every instance, or, without a URL, SQLite in dataDir. */
  database: { url?: string; poolSize: number; preparedStatements: number };
  /** Days finished per-request records are kept before the retention worker deletes them (0: for ever). */
  retention: RetentionDays;
  /**
   * A2A task limits (docs/decisions/a2a-abandoned-tasks.md): how long a task may stay in input-required or
   * auth-required before it ends as failed, and the sends per minute one client address may make without credentials.
   */
  a2a: { interruptedMs: number; anonymousSendsPerMinute: number; anonymousMaxMessageBytes: number; anonymousRetainMs: number };
  logLevel: string;
  egressAllow: string[];
  mcpToolsets: string[];
  maxBodyBytes: number;
  /** How deep a JSON body may nest (objects and arrays); past it every transport answers its own client error. */
  maxJsonDepth: number;
  /** Handoffs, jobs, artifacts and OAuth clients a caller without credentials may create an hour, each (src/anonymous-creates.ts). */
  anonymousCreatesPerHour: number;
  /** Agents one client address may register an hour (each brings its own storage budget). */
  registrationsPerHour: number;
  mcpMaxSessions: number;
  mcpSessionIdleMs: number;
  mcpPageSize: number;
  /** How often resource subscribers' feed looks for changes made by any gateway process on the database. */
  mcpChangePollMs: number;
  /** The comment frame that keeps an idle 2026-07-28 stream (a subscriptions/listen) open through proxies. */
  mcpKeepAliveMs: number;
  /** The `retry` a resumable 2025-era SSE stream asks clients to wait before reconnecting (SEP-1699). */
  mcpSseRetryMs: number;
  /** After this long a 2025-era call's stream is closed and the client polls with Last-Event-ID; 0 = never. */
  mcpPollAfterMs: number;
  allowedHosts: string[];
  allowedOrigins: string[];
  /** Reverse proxies in front of the gateway (GATEWAY_TRUST_PROXY); 0 takes the socket's address. */
  trustProxy: number;
  operatorToken?: string;
  /** Told when a handoff is parked, signed with operatorWebhookSecret or a key derived from the operator token. */
  operatorWebhookUrl?: string;
  operatorWebhookSecret?: string;
  shutdownGraceMs: number;
  /** API keys one client address may be issued per 24 hours. */
  keysPerClientPerDay: number;
  memory: { maxValueBytes: number; maxEntriesPerAgent: number; maxBytesPerAgent: number; versionsKept: number };
  /** Bytes of live (unexpired) artifacts one agent may hold. */
  artifacts: { maxBytesPerAgent: number };
  /** Bytes of rows one agent (or commercial account) may hold in all: docs/decisions/storage-budget.md. */
  storageBudget: { bytesPerOwner: number };
  /** The browse verb: largest page, whole-fetch timeout, most characters returned, response cache size (0 = off). */
  browse: { maxBytes: number; timeoutMs: number; maxChars: number; cacheBytes: number };
  /** The search provider research finds sources with, when configured (SEARCH_*). */
  search?: SearchConfig;
  /** The research verb: most sources read for one question. */
  research: { maxSources: number };
  /** An OpenAI-compatible images endpoint (gen_image with a prompt), when configured (IMAGE_*). */
  images?: { baseUrl: string; apiKey?: string; model: string; timeoutMs: number };
  /** gen_image from a spec: the time one render may take before its render process is killed. */
  imageRenderMs: number;
  /** How long a vault_login handle lives (it can be revoked sooner with vault_logout). */
  vaultLoginTtlMs: number;
  /** Threads for heavy database reads (search, ranked lists); 0 runs them on the event loop. */
  readerThreads: number;
  /** An OpenAI-compatible embeddings endpoint (semantic memory search), when configured. */
  embeddings?: { baseUrl: string; apiKey?: string; model: string };
  /** An OpenAI-compatible chat upstream (summaries, proxied models), when configured. */
  llm?: { baseUrl: string; apiKey?: string; model?: string; timeoutMs: number };
  /** The free chat tier: completions per minute per client. */
  chat: { ratePerMinute: number };
  x402: X402Config;
  /** Store entitlements: product mapping and App Store trust (src/billing/entitlements/config.ts). */
  entitlements: EntitlementSettings;
  /** The commercial group at {api_url}: its listener, prices and rails (src/commerce/config.ts). */
  commercial: CommercialSettings;
  /** OpenTelemetry tracing, off unless an OTLP endpoint is set (src/tracing/config.ts). */
  tracing: TracingSettings;
  /** Bounds of the in-process caches and tables that grow with use (src/cache-bounds.ts). */
  caches: CacheBounds;
  /** Credentials the stdio MCP server acts with. */
  stdio: { handle?: string; secret?: string; apiKey?: string; revenueKey?: string };
}

/** SearXNG (self-hosted, JSON API) or the Brave Search API (hosted, needs a key). */
export interface SearchConfig {
  provider: 'searxng' | 'brave';
  /** Without a trailing slash: a SearXNG instance, or Brave's API root (https://api.search.brave.com/res/v1). */
  baseUrl: string;
  apiKey?: string;
}

const BRAVE_API = 'https://api.search.brave.com/res/v1';

function searchConfig(e: z.output<typeof EnvSchema>): SearchConfig | undefined {
  const provider = e.SEARCH_PROVIDER ?? (e.SEARCH_BASE_URL ? 'searxng' : undefined);
  if (!provider) return undefined;
  if (provider === 'searxng' && !e.SEARCH_BASE_URL) throw new ConfigError('Invalid configuration:\n  SEARCH_BASE_URL: required with SEARCH_PROVIDER=searxng (the SearXNG instance, e.g. http://localhost:8080)');
  if (provider === 'brave' && !e.SEARCH_API_KEY) throw new ConfigError('Invalid configuration:\n  SEARCH_API_KEY: required with SEARCH_PROVIDER=brave (a Brave Search API subscription token)');
  return { provider, baseUrl: (e.SEARCH_BASE_URL ?? BRAVE_API).replace(/\/+$/, ''), apiKey: e.SEARCH_API_KEY };
}

export interface X402Config {
  /** CAIP-2, e.g. eip155:8453 (Base) or eip155:84532 (Base Sepolia). */
  network: string;
  chainId: number;
  rpcUrl: string;
  /** The stablecoin contract, with its EIP-712 domain name/version and decimals. */
  asset: string;
  assetName: string;
  assetVersion: string;
  decimals: number;
  /** The service wallet's key; when absent a wallet is generated in the data dir. */
  privateKey?: string;
  /** Where payments go; defaults to the service wallet's address. */
  payTo?: string;
  maxTimeoutSeconds: number;
  /** How long a payer's balance read from the chain lets later payments skip the chain check (0: never). */
  verifyCacheSeconds: number;
  /** How long a settlement waits for its receipt before it is reported pending. */
  confirmationTimeoutSeconds: number;
}

/** USDC on Base and Base Sepolia (docs/decisions/x402.md); other networks must name their asset. */
const KNOWN_ASSETS: Record<string, { rpc: string; asset: string; name: string; version: string; decimals: number }> = {
  'eip155:8453': { rpc: 'https://mainnet.base.org', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', name: 'USD Coin', version: '2', decimals: 6 },
  'eip155:84532': { rpc: 'https://sepolia.base.org', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', name: 'USDC', version: '2', decimals: 6 },
};

function x402Config(e: z.output<typeof EnvSchema>): X402Config {
  const known = KNOWN_ASSETS[e.X402_NETWORK];
  const missing = ['X402_RPC_URL', 'X402_ASSET', 'X402_ASSET_NAME', 'X402_ASSET_VERSION'].filter((k) => !known && !e[k as keyof typeof e]);
  if (missing.length) throw new ConfigError(`Invalid configuration:\n  X402_NETWORK=${e.X402_NETWORK} is not a known network: set ${missing.join(', ')}`);
  return {
    network: e.X402_NETWORK,
    chainId: Number(e.X402_NETWORK.slice('eip155:'.length)),
    rpcUrl: e.X402_RPC_URL ?? known!.rpc,
    asset: e.X402_ASSET ?? known!.asset,
    assetName: e.X402_ASSET_NAME ?? known!.name,
    assetVersion: e.X402_ASSET_VERSION ?? known!.version,
    decimals: e.X402_ASSET_DECIMALS ?? known?.decimals ?? 6,
    privateKey: e.X402_PRIVATE_KEY,
    payTo: e.X402_PAY_TO,
    maxTimeoutSeconds: e.X402_MAX_TIMEOUT_SECONDS,
    verifyCacheSeconds: e.X402_VERIFY_CACHE_SECONDS,
    confirmationTimeoutSeconds: e.X402_CONFIRMATION_TIMEOUT_SECONDS,
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Settings whose value is a credential (or holds one: a database URL's password, an exporter's headers). */
const SECRET_SETTING = /(TOKEN|SECRET|_KEY|PASSWORD|_HEADERS)$|DATABASE_URL$/;

/**
 * A refused value as the start-up error shows it, which goes to stderr and so to the service's logs: a credential's
 * length only (a secret file's trailing newline must not print the wallet key), any other value as it is.
 */
const shownValue = (key: string, value: string): string =>
  SECRET_SETTING.test(key) ? `(hidden, ${value.length} characters)` : JSON.stringify(value);

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  // Parsed once per process: zod's compiled fast path would cost a JIT compile of the whole env schema (about
  // 20 ms at start-up) to save microseconds on this one parse.
  const parsed = EnvSchema.safeParse(cleaned, { jitless: true });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0] ?? '?');
      return `  ${key}=${shownValue(key, env[key] ?? '')}: ${i.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const hostForUrl = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    baseUrl: (e.GATEWAY_BASE_URL ?? `http://${hostForUrl.includes(':') ? `[${hostForUrl}]` : hostForUrl}:${e.PORT}`).replace(/\/+$/, ''),
    baseUrlFromListen: !e.GATEWAY_BASE_URL,
    dataDir: path.resolve(e.GATEWAY_DATA_DIR),
    database: { url: e.GATEWAY_DATABASE_URL, poolSize: e.GATEWAY_DATABASE_POOL, preparedStatements: e.GATEWAY_DATABASE_PREPARED },
    retention: {
      a2a_tasks: e.GATEWAY_RETAIN_A2A_TASKS_DAYS,
      jobs: e.GATEWAY_RETAIN_JOBS_DAYS,
      webhook_deliveries: e.GATEWAY_RETAIN_DELIVERIES_DAYS,
      notifications: e.GATEWAY_RETAIN_NOTIFICATIONS_DAYS,
      handoffs: e.GATEWAY_RETAIN_HANDOFFS_DAYS,
      template_runs: e.GATEWAY_RETAIN_ANONYMOUS_TEMPLATE_RUNS_DAYS,
    },
    a2a: {
      interruptedMs: e.GATEWAY_A2A_INTERRUPTED_HOURS * 3600_000,
      anonymousSendsPerMinute: e.GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE,
      anonymousMaxMessageBytes: e.GATEWAY_A2A_ANONYMOUS_MAX_MESSAGE_BYTES,
      anonymousRetainMs: e.GATEWAY_RETAIN_A2A_ANONYMOUS_HOURS * 3600_000,
    },
    logLevel: e.LOG_LEVEL,
    egressAllow: e.GATEWAY_EGRESS_ALLOW,
    mcpToolsets: e.GATEWAY_MCP_TOOLSETS,
    maxBodyBytes: e.GATEWAY_MAX_BODY_BYTES,
    maxJsonDepth: e.GATEWAY_MAX_JSON_DEPTH,
    anonymousCreatesPerHour: e.GATEWAY_ANONYMOUS_CREATES_PER_HOUR,
    registrationsPerHour: e.GATEWAY_REGISTRATIONS_PER_HOUR,
    mcpMaxSessions: e.GATEWAY_MCP_MAX_SESSIONS,
    mcpSessionIdleMs: e.GATEWAY_MCP_SESSION_IDLE_SECONDS * 1000,
    mcpPageSize: e.GATEWAY_MCP_PAGE_SIZE,
    mcpChangePollMs: e.GATEWAY_MCP_CHANGE_POLL_MS,
    mcpKeepAliveMs: e.GATEWAY_MCP_KEEPALIVE_MS,
    mcpSseRetryMs: e.GATEWAY_MCP_SSE_RETRY_MS,
    mcpPollAfterMs: e.GATEWAY_MCP_POLL_AFTER_MS,
    allowedHosts: e.GATEWAY_ALLOWED_HOSTS,
    allowedOrigins: e.GATEWAY_ALLOWED_ORIGINS,
    trustProxy: e.GATEWAY_TRUST_PROXY,
    operatorToken: e.GATEWAY_OPERATOR_TOKEN,
    operatorWebhookUrl: e.GATEWAY_OPERATOR_WEBHOOK_URL,
    operatorWebhookSecret: e.GATEWAY_OPERATOR_WEBHOOK_SECRET,
    shutdownGraceMs: e.GATEWAY_SHUTDOWN_GRACE_MS,
    keysPerClientPerDay: e.GATEWAY_KEYS_PER_CLIENT_PER_DAY,
    embeddings: e.EMBEDDINGS_BASE_URL ? { baseUrl: e.EMBEDDINGS_BASE_URL.replace(/\/+$/, ''), apiKey: e.EMBEDDINGS_API_KEY, model: e.EMBEDDINGS_MODEL } : undefined,
    llm: e.LLM_BASE_URL ? { baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''), apiKey: e.LLM_API_KEY, model: e.LLM_MODEL, timeoutMs: e.LLM_TIMEOUT_MS } : undefined,
    chat: { ratePerMinute: e.GATEWAY_CHAT_RATE_PER_MINUTE },
    memory: {
      maxValueBytes: e.GATEWAY_MEMORY_MAX_VALUE_BYTES,
      maxEntriesPerAgent: e.GATEWAY_MEMORY_MAX_ENTRIES,
      maxBytesPerAgent: e.GATEWAY_MEMORY_MAX_BYTES,
      versionsKept: e.GATEWAY_MEMORY_VERSIONS_KEPT,
    },
    artifacts: { maxBytesPerAgent: e.GATEWAY_ARTIFACT_MAX_BYTES },
    storageBudget: { bytesPerOwner: e.GATEWAY_AGENT_STORAGE_BYTES },
    browse: {
      maxBytes: e.GATEWAY_BROWSE_MAX_BYTES,
      timeoutMs: e.GATEWAY_BROWSE_TIMEOUT_SECONDS * 1000,
      maxChars: e.GATEWAY_BROWSE_MAX_CHARS,
      cacheBytes: e.GATEWAY_BROWSE_CACHE_BYTES,
    },
    search: searchConfig(e),
    research: { maxSources: e.GATEWAY_RESEARCH_MAX_SOURCES },
    images: e.IMAGE_BASE_URL ? { baseUrl: e.IMAGE_BASE_URL.replace(/\/+$/, ''), apiKey: e.IMAGE_API_KEY, model: e.IMAGE_MODEL, timeoutMs: e.IMAGE_TIMEOUT_SECONDS * 1000 } : undefined,
    imageRenderMs: e.GATEWAY_IMAGE_RENDER_SECONDS * 1000,
    vaultLoginTtlMs: e.GATEWAY_VAULT_LOGIN_TTL_SECONDS * 1000,
    readerThreads: e.GATEWAY_READER_THREADS,
    x402: x402Config(e),
    entitlements: entitlementSettings(e, ConfigError),
    commercial: commercialSettings(e),
    tracing: tracingSettings(e),
    caches: cacheBounds(e),
    stdio: { handle: e.AGENT_HANDLE, secret: e.AGENT_SECRET, apiKey: e.GATEWAY_API_KEY, revenueKey: e.GATEWAY_REVENUE_KEY },
  };
}
