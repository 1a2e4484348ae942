// The tool type (docs/architecture.md, "How to add a tool"). A tool is a named handler with a zod input schema, an auth rule, an optional
// price and flags saying where it is exposed. Tools never see express, MCP or any other adapter.
import type { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../store/db.js';
import type { Logger } from '../log.js';
import type { Egress } from '../egress/egress.js';
import type { Billing } from '../billing/charge.js';
import type { KeyService } from '../billing/keys.js';
import type { PaymentSettings } from '../billing/challenge.js';
import type { Bus } from '../bus.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { Content } from '../blobs/content.js';
import type { Commerce } from '../commerce/index.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { AgentRef, CallMeta, Caller, Charge, Confirmation, Confirmer, Credentials, FormAnswer, FormQuestion, InputAnswers, InputRound, Price, Transport } from './call-types.js';

// The call's own vocabulary lives in call-types.ts, which billing builds on; it stays importable from here.
export type {
  AgentRef,
  CallMeta,
  Caller,
  Choice,
  Confirmation,
  ConfirmationAnswer,
  Confirmer,
  Credentials,
  FormAnswer,
  FormField,
  FormQuestion,
  FormValue,
  InputAnswer,
  InputAnswers,
  InputKind,
  InputQuestion,
  InputRound,
  Price,
  RootsAnswer,
  SampleAnswer,
  SampleQuestion,
  Transport,
} from './call-types.js';

/** `account`: a commercial account's revenue key is required (the group at {api_url}, issue 23). */
export type AuthRule = 'public' | 'optional_owner' | 'owner' | 'paid' | 'account';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Infrastructure a handler can reach besides the database. Later areas add members here. */
export interface Services {
  /** Peppered hash of a client address, for provenance and anonymous limits. */
  clientKey(ip: string): string;
  /** Forget cached credentials of an agent: its secrets and the API keys it issued (after delete, secret rotation or suspension). */
  forgetAgent(agentId: string): void;
  /** The agent an agent secret belongs to (for the one route that accepts a secret in the body). */
  resolveAgent(secret: string): Promise<AgentRef | null>;
  /** Every registered tool (for overviews, routers and agent cards). */
  listTools(): Tool[];
  /** How tools are reached over REST (the assistant's "POST /vault"): the route tables, handed over by the composition root. */
  restBindings: readonly RestBinding[];
  /** The only way to fetch a URL (SSRF guard, limits, signed webhooks). */
  egress: Egress;
  /** Quota reservations for batches, key usage. */
  billing: Billing;
  keys: KeyService;
  /** x402 settings in force: network, asset, payTo. */
  payments: PaymentSettings;
  /** In-process events between areas. */
  bus: Bus;
  /** Content-addressed bytes (artifacts, bundles, snapshots). */
  blobs: BlobStore;
  /** Durable timed work: jobs, timers, expiries, watch checks, webhook deliveries. */
  scheduler: Scheduler<WorkerContext>;
  /** The commercial group's accounts and payment rails (issue 23). */
  commerce: Commerce;
}

/**
 * A REST route as a capability may describe it: method and path to a tool. The REST adapter's route tables
 * (rest/) satisfy it; capabilities read them through `services.restBindings`, never from rest/ or src/http.
 */
export interface RestBinding {
  method: string;
  /** OpenAPI-style path, e.g. `/agents/{handle}`. */
  path: string;
  /** The tool, or a path parameter naming it, limited to the tools `admits` accepts. */
  tool: string | { param: string; admits: (tool: Tool) => boolean };
  /** Kept out of public descriptions (internal aliases). */
  hidden?: boolean;
}

export interface ToolContext {
  caller: Caller;
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  services: Services;
  /** Runs another registry tool as the same caller (batch, templates, the chat router). */
  call(name: string, input: unknown): Promise<unknown>;
  meta: CallMeta;
  signal?: AbortSignal;
  /** Raw request bytes a REST route accepted instead of a JSON body (artifact uploads); never over MCP or A2A. */
  upload?: Upload;
  /** Reports how far a long call has got, when the adapter passes it on (MCP progress notifications). */
  progress?: ProgressReporter;
  /**
   * The person's answer to the tool's `ask` form, checked against it. Undefined when nobody was asked: the tool
   * had no question for this input, or the adapter cannot ask (REST, A2A), so the input must be enough alone.
   */
  answer?: FormAnswer;
  /**
   * The checked answers to the tool's `inputs` questions, by key: those the client could answer (an optional
   * question the client cannot answer is missing). Undefined when the tool asks none.
   */
  answers?: InputAnswers;
  /**
   * True when the adapter turns this call's durable work into something the client follows (an MCP task), so a
   * durable tool may answer with the work's handle at once; otherwise it should answer when the work has ended.
   */
  followsWork?: boolean;
  /** The lasting connection this call came on (a 2025-era MCP session, a stdio process), when there is one. */
  session?: McpSession;
  /**
   * Takes this call's payment out of the registry's hands (null when the call is free): the tool settles it
   * itself, committing when its durable work succeeds and releasing it when the work fails, so that work which
   * outlives the call is charged only on delivery.
   */
  holdCharge(): Charge | null;
}

/** What a lasting MCP connection remembers between calls: the vault_login handle it was bound to. */
export interface McpSession {
  login?: string;
  /**
   * Toolsets tools_find enabled on this connection: tools/list shows them beside the chosen ones, and the server
   * announces (and, for a shared session, stores) the change after the call.
   */
  enabledToolsets?: string[];
}

/** `done` out of `total` (when known) steps of a long call, with a short note. */
export type ProgressReporter = (done: number, total?: number, message?: string) => void;

/** What background work (area workers, scheduled work kinds) runs with: a tool's context without a call. */
export type WorkerContext = Omit<ToolContext, 'caller' | 'call' | 'meta' | 'signal' | 'holdCharge'>;

export interface Upload {
  /** The body, hashed on arrival and kept in the chunks it came in. */
  content: Content;
  /** The request's Content-Type. */
  contentType: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  upload?: Upload;
  /** Asks the person before a tool that wants confirmation acts (given by adapters that can ask). */
  confirm?: Confirmer;
  /** Hears the handler's progress reports (given by adapters that can pass them on). */
  progress?: ProgressReporter;
  /** The client follows durable work the call starts (see ToolContext.followsWork). */
  followsWork?: boolean;
  session?: McpSession;
}

/**
 * Where durable work a tool started stands, in words every adapter can map to its own. `failed`: the work ended
 * with an error that is its answer (a tool error); `errored`: it broke (an internal failure, no answer at all);
 * `input_required`: it waits for the client's answers to its `questions`.
 */
export type WorkState = 'running' | 'input_required' | 'succeeded' | 'failed' | 'errored' | 'canceled';

export interface WorkStatus {
  state: WorkState;
  /** One line for people ("Job job_x is queued."); for `errored`, what broke, without internals. */
  message: string;
  /** What work in `input_required` waits for, keyed as the answers must come back (DurableWork.answer takes them). */
  questions?: InputRound;
  createdAt: number;
  updatedAt: number;
  /** When the work is due to start, if it waits (a timer): a poller need not ask before then. */
  dueAt?: number;
}

/**
 * Durable work a tool starts and answers for at once with its handle (a job): it outlives the call and a
 * restart. An adapter that can follow such work for the client (MCP's Tasks extension) reads it by id with the
 * `read` tool (input `{[field]: id}`, as the caller), whose answer is the work's final result once it ends.
 */
export interface DurableWork<R = unknown> {
  read: string;
  field: string;
  /** Tool that cancels the work (same input), as the caller; without one the work cannot be canceled. */
  cancel?: string;
  /**
   * Tool that hands the client's answers to work waiting for them (input `{[field]: id, answers}`, the answers
   * checked against the questions, only those still outstanding), as the caller; without one the work never asks.
   */
  answer?: string;
  /**
   * The work can only be followed by the adapter (its reader is not offered to clients), so a call from a client
   * that cannot follow it (MCP: no Tasks extension) is refused rather than answered with a handle it cannot use.
   */
  followedOnly?: boolean;
  /** The id of the work this call started, from its result; undefined when it started none. */
  idOf(result: R): string | undefined;
  /** Where the work stands, from the `read` tool's answer. */
  statusOf(read: Record<string, unknown>): WorkStatus;
  /**
   * The tool's own result once the work succeeded, from the `read` tool's answer (so a task ends with what the
   * call would have answered, matching its outputSchema); without it the read answer itself is the result.
   */
  resultOf?(read: Record<string, unknown>): Record<string, unknown>;
}

export interface SecretFields {
  input?: readonly string[];
  output?: readonly string[];
}

/** A result that is bytes rather than JSON (artifact downloads); REST sends it as an attachment. */
export interface FileResult {
  kind: 'file';
  bytes: Buffer;
  contentType: string;
  filename: string;
  sha256: string;
  /** When set, sent as Last-Modified. */
  modifiedAt?: number;
}

export interface ToolSpec<S extends z.ZodType = z.ZodType, R = unknown> {
  /** snake_case, unique and stable: it is an MCP tool name. */
  name: string;
  title?: string;
  toolset: string;
  description: string;
  input: S;
  output?: z.ZodType;
  auth: AuthRule;
  price?: Price | null;
  /**
   * Where the tool is reached: over MCP (default yes), as a REST calculator at /tools/{name} (default no), and
   * `mcpOnly` for the verbs the spec keeps to the MCP endpoint (the registry answers them 404 to every other
   * transport, so REST, A2A, the chat endpoint and a REST /batch cannot reach them).
   */
  expose?: { mcp?: boolean; catalog?: boolean; mcpOnly?: boolean };
  annotations?: ToolAnnotations;
  /**
   * Name of an input field naming the acting handle (e.g. `handle` on `/memory/stats?handle=`). When the
   * caller names a handle that is not its own, the pipeline answers 403 before the handler runs.
   */
  selfField?: string;
  /** The spec lets this tool take the agent secret in its body (the entitlement grant); all others refuse it. */
  secretInBody?: boolean;
  /**
   * Top-level fields of its input and of its result that hold a credential (a secret, a key, a vault value). The
   * caller gets them; a record the gateway keeps of the call (an A2A task) holds a placeholder in their place.
   */
  secretFields?: SecretFields;
  /**
   * Over MCP, the tool takes a `login` argument: a vault_login handle it acts with (hosts that can send neither
   * a header nor do OAuth, on the stateless era where no session remembers it).
   */
  acceptsLogin?: boolean;
  /** The question to put to the person before acting on this (valid) input, or null when none is needed. */
  confirm?: (input: z.output<S>) => Confirmation | null;
  /**
   * A form to put to the person before acting on this (valid) input, or null for none; the handler reads the
   * answer in `ctx.answer`. Asked after any confirmation and before any charge or side effect.
   */
  ask?: (input: z.output<S>) => FormQuestion | null;
  /**
   * What the tool needs from the client before it acts, in rounds: called with the answers so far (`{}` at first),
   * it returns the next round of questions, or null once it has what it needs; the handler reads them in
   * `ctx.answers`. Asked after any confirmation and before any charge or side effect, like `ask` (which is one
   * optional form under the key `ask`). A later round may depend on earlier answers; each round is asked whole.
   */
  inputs?: (input: z.output<S>, answers: InputAnswers) => InputRound | null;
  /** The call starts durable work and answers with its handle at once; adapters may follow it (see DurableWork). */
  durable?: DurableWork<R>;
  /**
   * `_meta` of the tool's MCP listing (tools/list), e.g. the MCP App view its results render in
   * (`{ui: {resourceUri}}`); other transports ignore it.
   */
  mcpMeta?: Record<string, unknown>;
  handler: (input: z.output<S>, ctx: ToolContext) => Promise<R> | R;
}

export interface Tool extends Required<Pick<ToolSpec, 'name' | 'toolset' | 'description' | 'input' | 'auth'>> {
  title?: string;
  output?: z.ZodType;
  price: Price | null;
  expose: { mcp: boolean; catalog: boolean; mcpOnly: boolean };
  annotations: ToolAnnotations;
  selfField?: string;
  secretInBody: boolean;
  secretFields?: SecretFields;
  acceptsLogin: boolean;
  confirm?: (input: unknown) => Confirmation | null;
  /** The tool's questions for the client (ToolSpec.inputs, with ToolSpec.ask folded in). */
  inputs?: (input: unknown, answers: InputAnswers) => InputRound | null;
  durable?: DurableWork;
  mcpMeta?: Record<string, unknown>;
  handler: (input: unknown, ctx: ToolContext) => Promise<unknown> | unknown;
  /** JSON Schema of the input, computed once. */
  inputJsonSchema: Record<string, unknown>;
}
