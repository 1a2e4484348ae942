// Composition root: builds the store, registry, MCP servers and HTTP front; starts and stops them.
import { createHmac } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type client from 'prom-client';
import { allTools, createWorkers, createWorkKinds } from '../tools/index.js';
import * as identityStore from '../tools/identity/store.js';
import { GATEWAY_VERSION } from '../tools/gateway/index.js';
import { commercialRoutes, routes } from '../rest/index.js';
import { resourceListers, resources, resourceTemplates } from '../resources/index.js';
import { prompts } from '../prompts/index.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './log.js';
import { createMetrics } from './metrics.js';
import { credentialsOf } from './http/credentials.js';
import { buildOpenApi, type InfraPath } from './http/openapi.js';
import { OriginGuard } from './http/origin-guard.js';
import { mountOperatorConsole } from './http/operator-console.js';
import { sendJson } from './http/send.js';
import type { Router } from './http/router.js';
import { createHttpServer } from './http/server.js';
import type { LegacySseEndpoint } from './mcp/legacy-sse.js';
import type { McpCatalog, McpConnectionOptions, SessionState } from './mcp/server.js';
import type { StreamableHttpEndpoint } from './mcp/streamable-http.js';
import type { ResourceFeed } from './mcp/resource-feed.js';
import { mountMcp, toolsetsOf } from './mcp/mount.js';
import { ALL_TOKEN, knownSelection } from './mcp/tool-surface.js';
import { mountSignedInMcp, signedInCredentials } from './mcp/signed-in.js';
import { mountOAuth } from './http/oauth/mount.js';
import { AccessTokens } from './auth/access-tokens.js';
import { mountA2a, type A2a } from './a2a/mount.js';
import { mountChat } from './openai/chat-endpoint.js';
import { scopeRefusal } from './mcp/scope-preflight.js';
import { AnswersBeforeExit } from './mcp/answers-before-exit.js';
import { DepthBoundTransport } from './mcp/depth-bound-transport.js';

const loadMcp = () => import('./mcp/runtime.js');
import { Registry } from './registry/registry.js';
import type { PromptDef } from './registry/prompt-defs.js';
import type { ResourceDef, ResourceTemplateDef } from './registry/resource-defs.js';
import type { Credentials, McpSession, Tool } from './registry/types.js';
import type { Db } from './store/db.js';
import type { Worker } from './workers.js';
import { createRetentionWorker } from './retention.js';
import { applyHeapGrowth } from './heap-growth.js';
import { buildInfrastructure, type Infrastructure } from './services.js';
import { openDatabase, prepareDatabase } from './store/open.js';
import { SqliteDb } from './store/sqlite.js';
import { installPepper } from './store/settings.js';
import { loginAgent } from './store/vault-logins.js';
import { hashSecret } from './auth/secrets.js';
import { startTracing, stopTracing } from './tracing/start.js';
import type { GatewayTracing } from './tracing/state.js';

/** What the commercial listener serves beside its route table. */
const API_INFRA: InfraPath[] = [
  { method: 'get', path: '/healthz', summary: 'Liveness', tag: 'operations' },
  { method: 'get', path: '/readyz', summary: 'Readiness (database reachable)', tag: 'operations' },
  { method: 'get', path: '/openapi.json', summary: 'This document', tag: 'operations' },
  { method: 'post', path: '/v1/chat/completions', summary: 'OpenAI-compatible chat completions metered per 1K tokens to the revenue key (JSON or SSE stream)', tag: 'commercial' },
];

export interface GatewayOptions {
  config: Config;
  clock?: Clock;
  log?: Logger;
  /**
   * The database, opened and prepared (`prepareDatabase`), when that was begun earlier: the CLI starts its threads
   * and migrates it while the modules load.
   */
  db?: Promise<Db>;
  /**
   * Tools, resources and prompts served beside the product's, registered before anything is served. The
   * product never passes it: it is the seam by which a test harness (the MCP conformance suite's fixtures,
   * test/helpers/conformance-gateway.ts) adds what the product must not ship.
   */
  additions?: CatalogAdditions;
}

export interface CatalogAdditions {
  tools?: Tool[];
  resources?: ResourceDef[];
  resourceTemplates?: ResourceTemplateDef[];
  prompts?: PromptDef[];
}

export class Gateway {
  readonly mcpCatalog: McpCatalog;
  private http?: http.Server;
  /** The commercial group's listener ({api_url}). */
  private apiHttp?: http.Server;
  private streamable?: StreamableHttpEndpoint;
  private mcpLoading?: Promise<{ streamable: StreamableHttpEndpoint; sse: LegacySseEndpoint }>;
  private sse?: LegacySseEndpoint;
  private feed?: ResourceFeed;
  private metrics?: client.Registry;
  private a2a?: A2a;
  private oauth?: { close(): void };
  private stopping = false;
  /** The process's tracing while this gateway uses it (OTEL_EXPORTER_OTLP_ENDPOINT set), else null. */
  private tracing: GatewayTracing | null = null;

  private constructor(
    readonly config: Config,
    readonly db: Db,
    readonly registry: Registry,
    readonly clock: Clock,
    readonly log: Logger,
    readonly infra: Infrastructure,
    readonly workers: Worker[],
    stateKey: Uint8Array,
    additions: CatalogAdditions = {},
  ) {
    this.mcpCatalog = {
      registry,
      resources: [...resources, ...(additions.resources ?? [])],
      resourceListers,
      resourceTemplates: [...resourceTemplates, ...(additions.resourceTemplates ?? [])],
      prompts: [...prompts, ...(additions.prompts ?? [])],
      pageSize: config.mcpPageSize,
      tasks: { db, clock },
      stateKey,
    };
  }

  /** Opens the database (migrating it) and builds the registry; no port is bound yet. */
  static async create(opts: GatewayOptions): Promise<Gateway> {
    const { config } = opts;
    const clock = opts.clock ?? systemClock;
    const log = opts.log ?? createLogger(config.logLevel);
    applyHeapGrowth(config.caches.heapGrowthPercent);
    // Before anything runs, so start-up work is traced too; nothing is loaded when tracing is off.
    const tracing = await startTracing(config.tracing, GATEWAY_VERSION);
    const db = await (opts.db ?? openDatabase(config).then((d) => prepareDatabase(d, config)));
    if (db instanceof SqliteDb) db.startHelpers({ readerThreads: config.readerThreads });
    let registry: Registry | undefined;
    const infra = await buildInfrastructure({
      db,
      config,
      clock,
      log,
      lookupAgent: (hash) => identityStore.agentBySecretHash(db, hash),
      registry: () => registry!,
      restBindings: routes,
    });
    const tokens = new AccessTokens(db);
    registry = new Registry({
      resolveAgent: (secret) => infra.resolver.resolve(secret),
      resolveAccessToken: async (token, resource) => {
        const c = await tokens.check(token, resource);
        return c.ok ? c.grant : null;
      },
      resolveLogin: async (login) => (await loginAgent(db, hashSecret(login), clock.now())) ?? null,
      resolveAccount: (key) => infra.services.commerce.accounts.resolve(key),
      base: { db, clock, config, log, services: infra.services },
    });
    registry.setChargeStep(infra.billing);
    infra.usage.attach(registry);
    registry.add(...allTools, ...(opts.additions?.tools ?? []));
    const workers = [...createWorkers(), createRetentionWorker()];
    for (const w of workers) w.start({ db, clock, config, log, services: infra.services });
    for (const k of createWorkKinds()) infra.services.scheduler.register(k);
    infra.services.scheduler.start();
    // A key of its own for MCP's multi-round request state, derived from the install's pepper (read, already made).
    const stateKey = createHmac('sha256', await installPepper(db)).update('mcp request state').digest();
    const gateway = new Gateway(config, db, registry, clock, log, infra, workers, stateKey, opts.additions);
    gateway.tracing = tracing;
    return gateway;
  }

  /**
   * Serves MCP over this process's stdio, in the era the host opens with (a 2025 `initialize` or a 2026-07-28
   * request), acting with `credentials`.
   */
  /** `allAnswered(ms)`: resolves once the requests received so far are answered (or after `ms`), for a clean exit. */
  async serveMcpStdio(toolsets: string[], credentials: Credentials): Promise<{ close(): Promise<void>; allAnswered(ms: number): Promise<void> }> {
    const { buildV2Server, serveStdio, ResourceFeed, StdioServerTransport, StdioListens, mcpMethods, boundCredentials } = await loadMcp();
    const visible = knownSelection(toolsets, new Set(this.registry.toolsets()));
    this.feed ??= new ResourceFeed(this.db, this.config.mcpChangePollMs, (err) => this.log.warn({ err }, 'resource change feed failed'));
    const feed = this.feed;
    // The process is one lasting connection, in either era: vault_login binds it until vault_logout.
    const session: McpSession = {};
    const methods = mcpMethods(this.mcpCatalog, [ALL_TOKEN]);
    // The SDK's transport closes at stdin's end, and a reply it has not sent by then is lost: it reads a copy of stdin
    // that never ends, and main.ts closes the connection once what was asked is answered.
    const stdin = new PassThrough();
    process.stdin.pipe(stdin, { end: false });
    const answers = new AnswersBeforeExit(new StdioServerTransport(stdin, process.stdout));
    const listens = new StdioListens(new DepthBoundTransport(answers, this.config.maxJsonDepth) as unknown as InstanceType<typeof StdioServerTransport>, feed, {
      mayWatch: (uri) => methods.mayWatch(uri, boundCredentials(credentials, session)),
      hears: (uri) => methods.hears(uri, boundCredentials(credentials, session)),
    });
    const connection = await serveStdio(
      (ctx) => {
        const server = buildV2Server(this.mcpCatalog, visible, credentials, feed, ctx.era, session);
        if (ctx.era === 'modern') listens.deliverThrough((uri) => server.sendResourceUpdated({ uri }));
        return server;
      },
      { transport: listens },
    );
    return { close: () => connection.close(), allAnswered: (ms) => answers.allAnswered(ms) };
  }

  /** The MCP HTTP transports, built (and the SDK loaded) on the first MCP request. */
  private mcpEndpoints(guardedCredentials: (req: http.IncomingMessage) => Credentials): Promise<{ streamable: StreamableHttpEndpoint; sse: LegacySseEndpoint }> {
    this.mcpLoading ??= loadMcp().then(({ buildMcpServer, buildV2Server, mcpMethods, DirectToolCalls, ModernHttpEndpoint, StreamableHttpEndpoint, LegacySseEndpoint, ResourceFeed, McpSessionStore }) => {
      const { config } = this;
      const known = new Set(this.registry.toolsets());
      const feed = (this.feed ??= new ResourceFeed(this.db, config.mcpChangePollMs, (err) => this.log.warn({ err }, 'resource change feed failed')));
      const factory = (ts: string[], state?: SessionState) => buildMcpServer(this.mcpCatalog, { toolsets: knownSelection(ts, known), credentials: this.httpCredentials(), feed, state });
      const modernFactory = (ts: string[], credentials: Credentials) => buildV2Server(this.mcpCatalog, knownSelection(ts, known), credentials, feed);
      const methods = mcpMethods(this.mcpCatalog, [ALL_TOKEN]);
      this.streamable = new StreamableHttpEndpoint(factory, {
        maxSessions: config.mcpMaxSessions,
        perClient: config.caches.sessionsPerClient,
        idleMs: config.mcpSessionIdleMs,
        maxBodyBytes: config.maxBodyBytes,
        maxJsonDepth: config.maxJsonDepth,
        credentials: guardedCredentials,
        resume: { retryMs: config.mcpSseRetryMs, pollAfterMs: config.mcpPollAfterMs, replayBytes: config.caches.mcpReplayBytes },
        modern: new ModernHttpEndpoint(modernFactory, { maxBodyBytes: config.maxBodyBytes, keepAliveMs: config.mcpKeepAliveMs, maxListens: config.mcpMaxSessions, listensPerClient: config.caches.sessionsPerClient }, feed, methods, new DirectToolCalls(this.mcpCatalog), (name) => this.registry.get(name)?.inputJsonSchema),
        // Sessions in the database, so any instance (or this one after a restart) serves them.
        store: new McpSessionStore(this.db, config.mcpSessionIdleMs),
        onStoreError: (err) => this.log.warn({ err }, 'mcp session store failed'),
        refuse: (req, raw) => scopeRefusal((name) => this.registry.get(name), config.baseUrl, guardedCredentials(req), raw),
      });
      this.sse = new LegacySseEndpoint(factory, { maxSessions: config.caches.mcpSseSessions, perClient: config.caches.sessionsPerClient, messagesPath: '/mcp/messages', maxJsonDepth: config.maxJsonDepth, credentials: guardedCredentials });
      return { streamable: this.streamable, sse: this.sse };
    });
    return this.mcpLoading;
  }

  private httpCredentials(): McpConnectionOptions['credentials'] {
    return (extra) => {
      const c = extra.authInfo?.extra?.credentials as Credentials | undefined;
      return c ?? { ip: 'unknown', transport: 'mcp' };
    };
  }

  /** Binds the HTTP port; resolves with the address actually bound. */
  async listen(): Promise<{ port: number; url: string; apiUrl: string }> {
    const { config } = this;
    const guard = new OriginGuard(config);
    // A /mcp/agent request carries its access token in credentials of its own (src/mcp/signed-in.ts).
    const fromReq = (req: http.IncomingMessage): Credentials => signedInCredentials(req) ?? credentialsOf(req, 'mcp', config.trustProxy);
    const tokens = new AccessTokens(this.db);
    const mcp = () => this.mcpEndpoints(fromReq);
    this.metrics = createMetrics(this.registry);
    let openapi: unknown;
    const server = createHttpServer({
      config,
      log: this.log,
      registry: this.registry,
      routes,
      extend: (router) => {
        this.operationsRoutes(router, () => (openapi ??= buildOpenApi(routes, this.registry, this.config.baseUrl, GATEWAY_VERSION)));
        mountOperatorConsole(router, this.registry, config);
        mountMcp(router, guard, {
          streamable: async (req, res, query) => (await mcp()).streamable.handle(req, res, toolsetsOf(query, req)),
          sseOpen: async (req, res, query) => (await mcp()).sse.open(req, res, toolsetsOf(query, req)),
          sseMessage: async (req, res, query) => (await mcp()).sse.message(req, res, query.get('sessionId')),
        });
        mountSignedInMcp(router, guard, {
          baseUrl: () => config.baseUrl,
          check: (token, resource) => tokens.check(token, resource),
          credentials: (req) => credentialsOf(req, 'mcp', config.trustProxy),
          serve: async (req, res, toolsets) => (await mcp()).streamable.handle(req, res, toolsets),
        });
        this.oauth = mountOAuth(router, { config, db: this.db, egress: this.registry.services.egress, registry: this.registry });
        this.a2a = mountA2a(router, { registry: this.registry, db: this.db, clock: this.clock, log: this.log, config, version: GATEWAY_VERSION });
        mountChat(router, this.registry, { trustProxy: config.trustProxy, maxBodyBytes: config.maxBodyBytes, maxJsonDepth: config.maxJsonDepth });
      },
    });
    this.http = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    if (config.baseUrlFromListen) {
      const host = new URL(config.baseUrl).hostname;
      (config as { baseUrl: string }).baseUrl = `http://${host}:${port}`;
    }
    guard.update(port);
    const apiUrl = await this.listenApi();
    return { port, url: config.baseUrl, apiUrl };
  }

  /** The second listener: the commercial group at {api_url}, its own routes and OpenAPI document. */
  private async listenApi(): Promise<string> {
    const c = this.config.commercial;
    let openapi: unknown;
    const doc = () =>
      (openapi ??= buildOpenApi(commercialRoutes, this.registry, c.baseUrl, GATEWAY_VERSION, {
        title: 'Agent Gateway commercial API',
        description: 'Paid services charged on delivery: accounts, orders, copy, content and dev tasks. Send the revenue key from POST /signup as X-Revenue-Key.',
        infra: API_INFRA,
      }));
    const server = createHttpServer({
      config: this.config,
      log: this.log,
      registry: this.registry,
      routes: commercialRoutes,
      extend: (router) => {
        this.healthRoutes(router);
        router.add('GET', '/openapi.json', (_req, res) => sendJson(res, 200, doc()));
        mountChat(router, this.registry, { trustProxy: this.config.trustProxy, maxBodyBytes: this.config.maxBodyBytes, maxJsonDepth: this.config.maxJsonDepth, tool: 'chat_metered' });
      },
    });
    this.apiHttp = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(c.port, c.host, () => resolve());
    });
    if (c.baseUrlFromListen) {
      const host = new URL(c.baseUrl).hostname;
      (c as { baseUrl: string }).baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;
    }
    return c.baseUrl;
  }

  /** /healthz and /readyz, on both listeners. */
  private healthRoutes(router: Router): void {
    router.add('GET', '/healthz', (_req, res) => sendJson(res, 200, { status: 'ok', version: GATEWAY_VERSION }));
    router.add('GET', '/readyz', async (_req, res) => {
      if (this.stopping) return sendJson(res, 503, { status: 'stopping' });
      try {
        await this.db.get('SELECT 1 AS ok');
        sendJson(res, 200, { status: 'ready' });
      } catch {
        sendJson(res, 503, { status: 'database unavailable' });
      }
    });
  }

  private operationsRoutes(router: Router, openapi: () => unknown): void {
    this.healthRoutes(router);
    router.add('GET', '/metrics', async (_req, res) => {
      const body = await this.metrics!.metrics();
      res.writeHead(200, { 'Content-Type': this.metrics!.contentType }).end(body);
    });
    router.add('GET', '/openapi.json', (_req, res) => sendJson(res, 200, openapi()));
  }

  /** Graceful stop: refuse new connections, let in-flight requests finish, close MCP sessions and the db. */
  async close(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const api = this.apiHttp;
    const apiClosed = api ? new Promise<void>((resolve) => api.close(() => resolve())) : undefined;
    api?.closeIdleConnections();
    const server = this.http;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      this.a2a?.close();
      this.oauth?.close();
      await this.streamable?.closeAll();
      await this.sse?.closeAll();
      const timer = setTimeout(() => server.closeAllConnections(), this.config.shutdownGraceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
    }
    if (api) {
      const timer = setTimeout(() => api.closeAllConnections(), this.config.shutdownGraceMs);
      timer.unref();
      await apiClosed;
      clearTimeout(timer);
    }
    this.feed?.close();
    await this.registry.services.scheduler.stop(this.config.shutdownGraceMs);
    for (const w of this.workers) await w.stop();
    await this.infra.close();
    await this.db.close();
    // The last spans (this shutdown's) are sent before the process may exit.
    await stopTracing(this.tracing).catch((err) => this.log.warn({ err }, 'tracing shutdown failed'));
  }
}
