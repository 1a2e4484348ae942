// The one registry every adapter calls. `call` runs the pipeline of docs/architecture.md ("The call pipeline"):
// resolve caller → authorize → validate → confirm → ask (inputs) → charge → run → shape.
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { GatewayError, toGatewayError, validationError, type ValidationIssue } from '../errors.js';
import { unknownFields } from './closed-objects.js';
import { ASK_KEY, askBeforeActing } from './ask-step.js';
import { confirmBeforeActing } from './confirm-step.js';
import type { AccountRef, Charge, ChargeStep, FormAnswer } from './call-types.js';
import { bearerChallenge } from '../auth/oauth-resource.js';
import { scopeFor } from '../auth/oauth-scopes.js';
import { tracing } from '../tracing/state.js';
import type { AgentRef, CallMeta, CallOptions, Caller, Credentials, Tool, ToolContext, Transport } from './types.js';

export interface CallEvent {
  tool: Tool;
  caller: Caller;
  ok: boolean;
  code?: string;
  ms: number;
}

export interface CallOutcome {
  result: unknown;
  meta: CallMeta;
}

export interface RegistryDeps {
  resolveAgent(secret: string): Promise<AgentRef | null>;
  /** An OAuth access token presented to `resource`: its agent and scopes, or null when it is not usable there. */
  resolveAccessToken?(token: string, resource: string): Promise<{ agent: AgentRef; scopes: readonly string[] } | null>;
  /** The agent a live vault_login handle stands for, or null when it is unknown, expired or revoked. */
  resolveLogin?(login: string): Promise<AgentRef | null>;
  /** The commercial account of a revenue key, or null. */
  resolveAccount?(key: string): Promise<AccountRef | null>;
  /** What every handler sees besides the per-call fields (db, clock, config, log, services). */
  base: Omit<ToolContext, 'caller' | 'call' | 'meta' | 'signal' | 'upload' | 'holdCharge'>;
}

/** The transports an MCP-only tool answers: MCP itself, and the gateway's own background work. */
const REACHES_MCP_ONLY = new Set<Transport>(['mcp', 'internal']);

const noCharge: ChargeStep = {
  begin: async () => {
    throw new GatewayError('payment_required', 'This tool is paid and billing is not configured on this gateway.');
  },
};

const valueAt = (input: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), input);

/** zod issues as FastAPI-style items; a field that was not sent at all is `missing`. */
export function zodIssuesToDetail(error: z.ZodError, input: unknown): ValidationIssue[] {
  return error.issues.map((i) => ({
    loc: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    msg: i.message,
    type: i.code === 'invalid_type' && valueAt(input, i.path) === undefined ? 'missing' : i.code,
  }));
}

export class Registry {
  private readonly tools = new Map<string, Tool>();
  private readonly listeners: ((e: CallEvent) => void)[] = [];
  private charger: ChargeStep = noCharge;

  constructor(private readonly deps: RegistryDeps) {}

  get services(): ToolContext['services'] {
    return this.deps.base.services;
  }

  add(...tools: Tool[]): this {
    for (const t of tools) {
      if (this.tools.has(t.name)) throw new Error(`duplicate tool name: ${t.name}`);
      this.tools.set(t.name, t);
    }
    return this;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  toolsets(): string[] {
    return [...new Set(this.list().map((t) => t.toolset))].sort();
  }

  setChargeStep(step: ChargeStep): void {
    this.charger = step;
  }

  onCall(listener: (e: CallEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Checks credentials once; a batch or a session reuses the result for many calls. */
  async resolve(credentials: Credentials): Promise<Caller> {
    const caller = await this.resolveAgent(credentials);
    if (credentials.revenueKey === undefined) return caller;
    const account = (await this.deps.resolveAccount?.(credentials.revenueKey)) ?? null;
    return { ...caller, account, badRevenueKey: account === null };
  }

  private async resolveAgent(credentials: Credentials): Promise<Caller> {
    // A vault_login handle is what the caller chose to act with (bound to its session, or an argument): it wins.
    if (credentials.login) {
      const agent = (await this.deps.resolveLogin?.(credentials.login)) ?? null;
      return { agent, badBearer: false, badLogin: agent === null, credentials };
    }
    const at = credentials.accessToken;
    if (at) {
      const grant = (await this.deps.resolveAccessToken?.(at.token, at.resource)) ?? null;
      return { agent: grant?.agent ?? null, badBearer: grant === null, credentials, scopes: grant?.scopes ?? [] };
    }
    if (!credentials.bearer) return { agent: null, badBearer: false, credentials };
    const agent = await this.deps.resolveAgent(credentials.bearer);
    return { agent, badBearer: agent === null, credentials };
  }

  async call(name: string, input: unknown, credentials: Credentials, opts: CallOptions = {}): Promise<CallOutcome> {
    return this.invoke(name, input, await this.resolve(credentials), opts);
  }

  /** Runs one call; while tracing is on, as a `registry.call <tool>` span (tool, transport and outcome; never the input). */
  invoke(name: string, input: unknown, caller: Caller, opts: CallOptions = {}): Promise<CallOutcome> {
    const t = tracing;
    if (t === null) return this.run(name, input, caller, opts);
    const known = this.tools.has(name);
    return t.inSpan(`registry.call ${known ? name : '(unknown)'}`, 'internal', { 'gateway.tool.name': known ? name : '(unknown)', 'gateway.transport': caller.credentials.transport }, () =>
      this.run(name, input, caller, opts),
    );
  }

  private async run(name: string, input: unknown, caller: Caller, { signal, upload, confirm, progress, followsWork, session }: CallOptions): Promise<CallOutcome> {
    const tool = this.tools.get(name);
    if (!tool || (tool.expose.mcpOnly && !REACHES_MCP_ONLY.has(caller.credentials.transport))) throw new GatewayError('not_found', `Unknown tool: ${name}`);
    const started = performance.now();
    let charge: Charge | undefined;
    try {
      // A secret in the body is refused first: the answer must tell the caller to move it to the header.
      if (!tool.secretInBody) refuseSecretInBody(input);
      if (tool.acceptsLogin) ({ input, caller } = await this.loginArgument(input, caller));
      if (caller.agent?.suspended_at != null) throw new GatewayError('agent_suspended');
      if (caller.scopes) checkScope(tool, caller, this.deps.base.config.baseUrl);
      authorize(tool, caller);
      // Acting for another handle is refused before validation, so a stranger learns nothing from 422s.
      checkSelf(tool, input, caller);
      const parsed = tool.input.safeParse(input ?? {});
      const extra = unknownFields(input, tool.inputJsonSchema);
      if (!parsed.success || extra.length > 0) throw validationError([...extra, ...(parsed.success ? [] : zodIssuesToDetail(parsed.error, input))]);
      const args = parsed.data as Record<string, unknown>;
      // Without a confirmer the confirm step returns at once: not awaiting it saves a promise round trip a call.
      if (confirm) await confirmBeforeActing(tool, args, confirm);
      // A tool with questions is asked even without a confirmer: a required question is then refused.
      const answers = tool.inputs ? await askBeforeActing(tool, args, confirm) : undefined;
      const answer = answers?.[ASK_KEY] as FormAnswer | undefined;
      const meta: CallMeta = { headers: {}, meta: {} };
      if (tool.auth === 'paid') charge = await this.charger.begin(tool, caller, meta);
      // Every field named, never `...base`: on Node 20 a spread followed by more fields builds the object the slow
      // way, about 9 µs a call here (docs/decisions/request-budget.md).
      const { db, clock, config, log, services } = this.deps.base;
      const ctx: ToolContext = {
        db,
        clock,
        config,
        log,
        services,
        caller,
        meta,
        signal,
        upload,
        progress,
        answer,
        answers,
        followsWork,
        session,
        holdCharge: () => {
          const held = charge ?? null;
          charge = undefined;
          return held;
        },
        // An inner call gets the caller and the signal, never the outer call's upload or confirmer: a question
        // asked mid-way through a batch would come after the earlier calls had acted.
        call: async (inner, innerInput) => (await this.invoke(inner, innerInput, caller, { signal })).result,
      };
      const result = await tool.handler(args, ctx);
      if (charge) {
        const c = charge;
        charge = undefined;
        await c.commit(meta);
      }
      this.emit({ tool, caller, ok: true, ms: performance.now() - started });
      return { result, meta };
    } catch (err) {
      if (charge) await charge.release().catch(() => undefined);
      const ge = toGatewayError(err);
      if (ge.code === 'internal_error') this.deps.base.log.error({ err, tool: name, id: caller.credentials.requestId }, 'tool failed');
      this.emit({ tool, caller, ok: false, code: ge.code, ms: performance.now() - started });
      throw ge;
    }
  }

  /**
   * A verb's `login` argument (MCP only: elsewhere it is an unknown field, refused as such): the call acts as the
   * agent of that vault_login handle, and the argument goes no further than here.
   */
  private async loginArgument(input: unknown, caller: Caller): Promise<{ input: unknown; caller: Caller }> {
    if (typeof input !== 'object' || input === null || !('login' in input) || !REACHES_MCP_ONLY.has(caller.credentials.transport)) return { input, caller };
    const { login, ...rest } = input as Record<string, unknown>;
    if (typeof login !== 'string' || login === '') throw validationError([{ loc: ['login'], msg: 'A vault_login handle (a string).', type: 'string_type' }]);
    return { input: rest, caller: await this.resolve({ ...caller.credentials, login }) };
  }

  private emit(e: CallEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // An observer must never break a call.
      }
    }
  }
}

/** An OAuth token acts only within its scopes (src/auth/oauth-scopes.ts); a dead token is a 401 to sign in again. */
function checkScope(tool: Tool, caller: Caller, baseUrl: string): void {
  if (caller.badBearer) {
    throw new GatewayError('unauthorized', 'The access token is not valid (expired, revoked or for another resource).', {
      headers: { 'WWW-Authenticate': bearerChallenge(baseUrl, { error: 'invalid_token' }) },
    });
  }
  const need = scopeFor(tool);
  if (!caller.scopes!.includes(need)) {
    throw new GatewayError('insufficient_scope', `The tool ${tool.name} needs the "${need}" scope, which this access token was not granted.`, {
      extra: { required_scope: need },
      headers: { 'WWW-Authenticate': bearerChallenge(baseUrl, { error: 'insufficient_scope', scope: need }) },
    });
  }
}

const LOGIN_REFUSED =
  'The vault_login handle is unknown, expired or revoked. Call vault_login again, or sign in with OAuth (the /mcp/agent endpoint), which needs no handle.';

const ACCOUNT_NEEDED = 'Send the revenue key in X-Revenue-Key (open an account with POST /signup on the commercial API).';

function authorize(tool: Tool, caller: Caller): void {
  if (tool.auth === 'public') return;
  if (tool.auth === 'account') {
    if (caller.badRevenueKey) throw new GatewayError('forbidden', 'The revenue key is not valid.');
    if (!caller.account) throw new GatewayError('unauthorized', ACCOUNT_NEEDED, { headers: { 'WWW-Authenticate': 'Bearer realm="agent-gateway-api"' } });
    return;
  }
  if (caller.badLogin) throw new GatewayError('unauthorized', LOGIN_REFUSED);
  if (caller.badBearer) throw new GatewayError('forbidden', 'The agent secret is not valid.');
  if (tool.auth === 'owner' && !caller.agent) {
    throw new GatewayError('unauthorized', undefined, { headers: { 'WWW-Authenticate': 'Bearer realm="agent-gateway"' } });
  }
}

/** The agent secret travels in Authorization: Bearer only; a secret field in the input is refused. */
function refuseSecretInBody(input: unknown): void {
  if (typeof input !== 'object' || input === null) return;
  for (const k of ['secret', 'agent_secret']) {
    if (k in input) throw new GatewayError('secret_in_body', 'Send the agent secret as Authorization: Bearer, never in the body.');
  }
}

function checkSelf(tool: Tool, input: unknown, caller: Caller): void {
  if (!tool.selfField || typeof input !== 'object' || input === null) return;
  const raw = (input as Record<string, unknown>)[tool.selfField];
  if (typeof raw !== 'string' || raw.trim() === '') return;
  const named = raw.trim().toLowerCase();
  if (!caller.agent) {
    throw new GatewayError('unauthorized', `Naming a handle here needs that agent's secret in Authorization: Bearer.`, {
      headers: { 'WWW-Authenticate': 'Bearer realm="agent-gateway"' },
    });
  }
  if (named.toLowerCase() !== caller.agent.handle) {
    throw new GatewayError('forbidden', `These credentials belong to another handle than "${named}".`);
  }
}
