// Ask, read, check, and on a miss ask again saying exactly what was wrong, up to `attempts` times; then fail
// with ContentShapeError carrying the tokens spent. Structured output (response_format json_schema) is asked
// for first when the deliverable has a schema; a server that refuses it (400/422) is asked again in Markdown
// on the same attempt, and the parsers read Markdown whatever was asked, since many servers ignore the field.
import { ContentShapeError } from './errors.js';
import { callModel, refusedRequest, type ChatMessage, type LlmSettings } from './model.js';
import { feedbackMessage, taskMessage } from './prompts.js';
import { addUsage, noUsage, type Usage } from './usage.js';

/** A reply read: the deliverable, or what it missed, one line each (sent back to the model). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export interface Job<T> {
  system: string;
  /** What to produce, without the format. */
  task: string;
  /** The Markdown format asked for, shown to the model in full. */
  format: string;
  /** The JSON schema of a structured reply, for servers that enforce one. */
  schema?: { name: string; schema: Record<string, unknown> };
  /** Turns held earlier (a previous deliverable and the client's revision notes) after the task. */
  history?: ChatMessage[];
  parse(text: string): Parsed<T>;
}

export interface Produced<T> {
  deliverable: T;
  /** Tokens of every call, the missed attempts included. */
  usage: Usage;
  /** Calls it took (1 when the first reply fitted). */
  attempts: number;
}

export interface ProduceOptions {
  signal?: AbortSignal;
  /** Ask for structured output when the deliverable has a schema (default true). */
  structured?: boolean;
}

const CUT_OFF = 'the reply was cut off before its end (the server stopped at its token limit): keep it within the asked length';

export async function runAttempts<T>(llm: LlmSettings | undefined, job: Job<T>, attempts: number, opts: ProduceOptions = {}): Promise<Produced<T>> {
  const tries = Math.max(1, Math.floor(attempts) || 1);
  let structured = opts.structured !== false && !!job.schema;
  let usage = noUsage();
  let last: { reply: string; problems: string[] } | undefined;
  for (let attempt = 1; attempt <= tries; ) {
    const messages: ChatMessage[] = [
      { role: 'system', content: job.system },
      { role: 'user', content: taskMessage(job.task, job.format, structured) },
      ...(job.history ?? []),
      ...(last ? [{ role: 'assistant' as const, content: last.reply }, { role: 'user' as const, content: feedbackMessage(last.problems, job.format, structured) }] : []),
    ];
    let reply;
    try {
      reply = await callModel(llm, messages, {
        signal: opts.signal,
        ...(structured && job.schema ? { responseFormat: { type: 'json_schema', json_schema: { name: job.schema.name, strict: true, schema: job.schema.schema } } } : {}),
      });
    } catch (err) {
      if (structured && refusedRequest(err)) {
        structured = false; // this server has no structured output: same attempt, in Markdown
        continue;
      }
      throw err;
    }
    usage = addUsage(usage, reply.usage);
    const parsed = job.parse(reply.text);
    if (parsed.ok) return { deliverable: parsed.value, usage, attempts: attempt };
    last = { reply: reply.text, problems: reply.finishReason === 'length' ? [...parsed.problems, CUT_OFF] : parsed.problems };
    attempt++;
  }
  const problems = last?.problems ?? [];
  throw new ContentShapeError(`The model missed the deliverable's shape ${tries} time${tries === 1 ? '' : 's'}: ${problems.join('; ')}`, usage, { problems, attempts: tries });
}
