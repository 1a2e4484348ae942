// POST /a2a (JSON-RPC 2.0, A2A v0.3; v1.0 with `A2A-Version: 1.0`, as a header or a query parameter), v1.0's HTTP+JSON
// binding under /a2a (rest.ts) and the agent card at the well-known paths. JSON-RPC: reads the body, checks the
// envelope, resolves the caller from the headers once, dispatches; every JSON-RPC error is answered with HTTP 200.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { credentialsOf } from '../http/credentials.js';
import { a2aCaller } from './caller.js';
import { readBody } from '../http/read-body.js';
import { httpRequestIdOf } from '../http/request.js';
import type { Router } from '../http/router.js';
import { sendJson, sendJsonText } from '../http/send.js';
import type { Logger } from '../log.js';
import type { Registry } from '../registry/registry.js';
import type { Db } from '../store/db.js';
import { DurableFollower } from './durable.js';
import { idOfError, isInternal, parseRequest, rpcError, rpcResultText, RPC, RpcError, type RpcId } from './jsonrpc.js';
import { methodTables, STREAMED, type Handler } from './methods.js';
import type { SseStream } from './sse.js';
import { TaskService } from './task-service.js';
import { v1Card } from './v1.js';
import { sentCredential } from './card.js';
import { requestedVersion, versionOf } from './version.js';
import { mountA2aRest } from './rest.js';
import { ClientShares } from '../client-share.js';

export interface A2aDeps {
  registry: Registry;
  db: Db;
  clock: Clock;
  log: Logger;
  config: Config;
  version: string;
}

export interface A2a {
  service: TaskService;
  /** Ends open event streams (the gateway is stopping). */
  close(): void;
}

const answer = (res: ServerResponse, body: unknown) => sendJson(res, 200, body);

export function mountA2a(router: Router, d: A2aDeps): A2a {
  const service = new TaskService({
    registry: d.registry,
    db: d.db,
    clock: d.clock,
    log: d.log,
    anonymousSendsPerMinute: d.config.a2a.anonymousSendsPerMinute,
    anonymousMaxMessageBytes: d.config.a2a.anonymousMaxMessageBytes,
    rateWindowKeys: d.config.caches.rateWindowKeys,
  });
  const follower = new DurableFollower(service, d.registry, d.db, d.log);
  follower.attach(d.registry.services.bus);
  follower.reconcile().catch((err: unknown) => d.log.warn({ err }, 'a2a: reconcile at start-up failed'));
  const streams = new Set<SseStream>();
  const tables = methodTables({ registry: d.registry, service, streams, maxStreams: d.config.caches.a2aStreams, shares: new ClientShares(d.config.caches.sessionsPerClient), card: () => ({ baseUrl: d.config.baseUrl, version: d.version }) });

  const dispatch = async (req: IncomingMessage, res: ServerResponse, _match: unknown, rawQuery: string): Promise<void> => {
    const text = await readBody(req, d.config.maxBodyBytes);
    if (text === null) return answer(res, rpcError(null, new RpcError(RPC.INVALID_REQUEST, `Invalid request: the body is larger than ${d.config.maxBodyBytes} bytes.`)));
    let id: RpcId = null;
    try {
      const rq = parseRequest(text, d.config.maxJsonDepth);
      id = rq.id;
      const version = versionOf(req, rawQuery);
      if (!version) throw new RpcError(RPC.VERSION_NOT_SUPPORTED, `A2A-Version ${requestedVersion(req, rawQuery)} is not supported: send 0.3 (the default) or 1.0.`);
      const [table, other] = version === '1.0' ? [tables.v1, tables.v03] : [tables.v03, tables.v1];
      // Own keys only: "toString" or "__proto__" are no methods.
      if (!Object.hasOwn(table, rq.method)) {
        const hint = Object.hasOwn(other, rq.method) ? (version === '1.0' ? ' (a v0.3 name: drop the A2A-Version: 1.0 header)' : ' (a v1.0 name: send the header A2A-Version: 1.0)') : '';
        throw new RpcError(RPC.METHOD_NOT_FOUND, `Method not found: ${rq.method}${hint}.`, { method: rq.method });
      }
      const handler: Handler = table[rq.method];
      const caller = await a2aCaller(d.registry, req, d.config.trustProxy);
      const result = await handler({ id, params: rq.params, caller, res });
      if (result !== STREAMED) sendJsonText(res, 200, rpcResultText(id, result));
    } catch (err) {
      if (isInternal(err)) d.log.error({ err, id: httpRequestIdOf(req) }, 'a2a request failed');
      if (res.headersSent) {
        res.end();
        return;
      }
      answer(res, rpcError(err instanceof RpcError && err.code === RPC.PARSE_ERROR ? null : (idOfError(err) ?? id), err));
    }
  };

  router.add('POST', '/a2a', dispatch);
  // v1.0's HTTP+JSON binding: the same handlers at resource URLs under /a2a.
  mountA2aRest(router, { registry: d.registry, config: d.config, log: d.log, tables });
  // Each version's card shape: a client asking for 1.0 (header or query) gets the v1.0 form (oneof security schemes).
  // A caller with a credential is offered the extended card; one without is not (card.ts), so caches keep them apart.
  const card = (req: IncomingMessage, res: ServerResponse, _match: unknown, rawQuery: string) => {
    const credentials = credentialsOf(req, 'a2a', d.config.trustProxy);
    const c = tables.publicCard(credentials);
    sendJson(res, 200, versionOf(req, rawQuery) === '1.0' ? v1Card(c) : c, {
      'Cache-Control': `${sentCredential(credentials) ? 'private' : 'public'}, max-age=300`,
      'Access-Control-Allow-Origin': '*',
      Vary: 'A2A-Version, Authorization, X-API-Key',
    });
  };
  router.add('GET', '/.well-known/agent-card.json', card);
  // The name used before A2A v0.3, still read by older clients.
  router.add('GET', '/.well-known/agent.json', card);

  return {
    service,
    close: () => {
      for (const s of [...streams]) s.shutdown();
    },
  };
}
