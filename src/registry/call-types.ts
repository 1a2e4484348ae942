// The vocabulary of one call, shared by the registry's pipeline and the billing step it calls: who is calling
// and how, what a call carries back besides its result, and the charge-step contract. It imports nothing, so
// billing builds on it while the registry's tool context (types.ts) names billing's services without a cycle.

export type Transport = 'rest' | 'mcp' | 'a2a' | 'chat' | 'batch' | 'internal';

/** Raw credentials as an adapter found them; the pipeline resolves them. */
export interface Credentials {
  bearer?: string;
  apiKey?: string;
  /** x402 v2 `PAYMENT-SIGNATURE` (base64 JSON). */
  paymentSignature?: string;
  /** Legacy x402 v1 `X-PAYMENT`. */
  xPayment?: string;
  /** `X-Operator-Token`, for operator-only actions. */
  operatorToken?: string;
  /**
   * An OAuth access token and the resource (absolute URL) it was presented to; only /mcp/agent sets it. `scopes` are
   * those it was granted when the request was checked, for shaping lists and refusing early; the registry checks the
   * token again for every call.
   */
  accessToken?: { token: string; resource: string; scopes?: readonly string[] };
  /** A revenue key of the commercial group (`X-Revenue-Key`, or a Bearer with its prefix at {api_url}). */
  revenueKey?: string;
  /** A vault_login handle: the one a lasting MCP connection was bound to, or a verb's `login` argument. */
  login?: string;
  /** Client address, for anonymous rate limits and provenance. */
  ip: string;
  transport: Transport;
  /** The HTTP request's id (X-Request-Id), for the log line of a call that fails inside; none off HTTP. */
  requestId?: string;
}

export interface AgentRef {
  id: string;
  handle: string;
  /** Set while an operator has the agent suspended: every call with its credentials is refused. */
  suspended_at?: number | string | null;
}

/** A commercial account (issue 23), the holder of a revenue key. */
export interface AccountRef {
  id: string;
  email: string;
  name: string;
}

/** Who is calling, once credentials are checked. */
export interface Caller {
  agent: AgentRef | null;
  /** True when a bearer (or an OAuth access token) was sent but matched no agent. */
  badBearer: boolean;
  /** True when a vault_login handle was sent but is unknown, expired or revoked. */
  badLogin?: boolean;
  /** The commercial account of a revenue key; `badRevenueKey` when one was sent that matches none. */
  account?: AccountRef | null;
  badRevenueKey?: boolean;
  /** What an OAuth access token was granted (read, write, vault, pay); absent for every other credential. */
  scopes?: readonly string[];
  credentials: Credentials;
  /** Filled by the billing step for metered calls (key, quota). */
  billing?: Record<string, unknown>;
}

export interface Price {
  /** Decimal US dollars, e.g. "0.001". */
  usd: string;
}

/** What a call may add beside its result: headers (REST) that MCP carries in `_meta`. */
export interface CallMeta {
  headers: Record<string, string>;
  /** Structured extras for `_meta` (e.g. payment receipts). */
  meta: Record<string, unknown>;
}

/** What the charge step needs of a tool: a paid call is charged for its name at its price. */
export interface PricedTool {
  name: string;
  description: string;
  price: Price | null;
  /** Where it is bought over REST when not at /tools/{name} (a batch, bought at /batch). */
  restPath?: string;
}

/** The billing step for `paid` tools (filled in by src/billing). */
export interface ChargeStep {
  /** Reserves payment before the handler runs; throws payment_required (402) when there is none. */
  begin(tool: PricedTool, caller: Caller, meta: CallMeta): Promise<Charge>;
}

export interface Charge {
  /** The handler succeeded: commit (count quota, settle payment) and add receipt headers to `meta`. */
  commit(meta: CallMeta): Promise<void>;
  /** The handler failed: release what `begin` reserved. */
  release(): Promise<void>;
}

/** A question a tool puts to the person before it acts, when the adapter can ask one (MCP elicitation). */
export interface Confirmation {
  /** Shown to the person: what will happen, in their words. */
  message: string;
  /** When set, the person types this exact text to confirm (the handle before a deletion); otherwise yes or no. */
  typeToConfirm?: string;
}

/** What the person answered: go on, stop, or not yet (the adapter asks on a later round trip). */
export type ConfirmationAnswer = 'confirmed' | 'declined' | 'pending';

/** Where a form field is shown: its label and help text. */
interface FieldText {
  title?: string;
  description?: string;
}

/** A titled choice: the value sent back and what the person reads. */
export interface Choice {
  const: string;
  title: string;
}

/**
 * A field of a form a tool asks the person to fill: the restricted JSON Schema of MCP form elicitation
 * (flat primitives with defaults, SEP-1034; single and multiple choice, titled or not, SEP-1330).
 */
export type FormField =
  | (FieldText & { type: 'string'; default?: string; minLength?: number; maxLength?: number; format?: 'email' | 'uri' | 'date' | 'date-time' })
  | (FieldText & { type: 'string'; default?: string; enum: string[]; /** Deprecated titles of `enum` (older clients). */ enumNames?: string[] })
  | (FieldText & { type: 'string'; default?: string; oneOf: Choice[] })
  | (FieldText & { type: 'number' | 'integer'; default?: number; minimum?: number; maximum?: number })
  | (FieldText & { type: 'boolean'; default?: boolean })
  | (FieldText & { type: 'array'; default?: string[]; minItems?: number; maxItems?: number; items: { type: 'string'; enum: string[] } })
  | (FieldText & { type: 'array'; default?: string[]; minItems?: number; maxItems?: number; items: { anyOf: Choice[] } });

/** A form a tool asks the person to fill before it acts (computed from its valid input, like a confirmation). */
export interface FormQuestion {
  message: string;
  fields: Record<string, FormField>;
  required?: string[];
}

export type FormValue = string | number | boolean | string[];

/** The person's answer: accepted with the form's values (checked against it), declined, or dismissed. */
export interface FormAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, FormValue>;
}

/** A completion a tool asks of the client's own model (MCP sampling): the conversation so far and a bound on the reply. */
export interface SampleQuestion {
  messages: { role: 'user' | 'assistant'; text: string }[];
  maxTokens: number;
  systemPrompt?: string;
}

/**
 * What a tool may need from the client before it acts: the person's answer to a form, a completion by the client's
 * model, or the client's roots. `optional`: the tool can act without it when the client cannot answer this kind;
 * otherwise such a client is refused (MCP: MissingRequiredClientCapability).
 */
export type InputQuestion = ({ kind: 'form'; form: FormQuestion } | { kind: 'sample'; sample: SampleQuestion } | { kind: 'roots' }) & { optional?: boolean };

export type InputKind = InputQuestion['kind'];

/** One round of questions, keyed by the name each answer comes back under (`confirm` is the confirmation's). */
export type InputRound = Record<string, InputQuestion>;

/** The client model's reply: its text (undefined when it answered with another kind of block) and which model. */
export interface SampleAnswer {
  text: string | undefined;
  model?: string;
}

export interface RootsAnswer {
  roots: { uri: string; name?: string }[];
}

/** An answer, checked against its question: a form's (FormAnswer), a completion's or the roots. */
export type InputAnswer = FormAnswer | SampleAnswer | RootsAnswer;

export type InputAnswers = Record<string, InputAnswer>;

/**
 * How an adapter asks the person (and the client). Absent, the explicit arguments are the consent (REST, A2A, and
 * MCP clients that can neither elicit nor take an input_required round trip).
 */
export interface Confirmer {
  /** Paid calls priced above this many US dollars are confirmed too. */
  aboveUsd?: number;
  ask(q: Confirmation): Promise<ConfirmationAnswer>;
  /** Whether the client can answer this kind of question (what it declared); absent, it can answer none. */
  canAnswer?(kind: InputKind): boolean;
  /**
   * Puts one round of questions: the answers by key as the client sent them (the registry checks them), or
   * 'pending' when they come on a later round trip.
   */
  put?(round: InputRound): Promise<Record<string, unknown> | 'pending'>;
  /** Checked answers of earlier rounds that the client carried back (MCP's signed requestState), to go on from. */
  earlier?: InputAnswers;
}
