// Extraction by the operator's model (config.llm): the reply must be JSON of the result's schema (response_format
// json_schema where the server offers it; JSON read from a plain reply otherwise, as the content services do),
// validated with ajv against the caller's schema, asked once more with the errors when it misses, then failed.
// The model only fills fields: a string it gives that the source does not contain is dropped, not kept.
import type { ValidateFunction } from 'ajv';
import { ContentShapeError } from '../content/errors.js';
import { callModel, refusedRequest, type ChatMessage, type LlmSettings } from '../content/model.js';
import { addUsage, noUsage, type Usage } from '../content/usage.js';
import { MODEL_ATTEMPTS } from './limits.js';
import type { Mapped } from './map.js';
import { ajvInstance, resultSchema, type Field } from './schema.js';

const SYSTEM =
  'You extract data from a source into JSON fields. Use only what the source states: copy values as written (a number as a number), ' +
  'and give null for any field the source does not state. Never guess, infer or make up a value. Reply with the JSON object only.';

/** Confidence of a value the model gave and the source contains. */
const MODEL_CONFIDENCE = 0.8;
/** Below this, a value the engines found (entities) gives way to the model's; structured data stays. */
const STRUCTURED_CONFIDENCE = 0.85;

/** A field for the prompt: its name, type and hints; an object's fields indented below it. */
function describe(f: Field, indent = ''): string {
  const type = f.type === 'object' ? 'object' : f.type;
  const line = `${indent}- ${f.name}: ${f.array ? `array of ${type}` : type}${f.schema.format ? ` (${String(f.schema.format)})` : ''}${f.kind ? ` [${f.kind}]` : ''}${typeof f.schema.description === 'string' ? ` — ${f.schema.description}` : ''}`;
  return f.fields ? [`${line}, with:`, ...f.fields.map((s) => describe(s, `${indent}  `))].join('\n') : line;
}

function task(fields: Field[], text: string): string {
  return `Fields:\n${fields.map((f) => describe(f)).join('\n')}\n\nReply with one JSON object with exactly these keys, each a value of its type or null.\n\nSource:\n"""\n${text}\n"""`;
}

/** The JSON object of a reply: as sent, or inside a fenced block or surrounding words. */
export function readJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const s = (fenced ?? text).trim();
  try {
    return JSON.parse(s);
  } catch {
    const start = s.indexOf('{');
    const end = s.lastIndexOf('}');
    if (start < 0 || end <= start) return undefined;
    try {
      return JSON.parse(s.slice(start, end + 1));
    } catch {
      return undefined;
    }
  }
}

const flat = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** A string the source contains (dates may be rewritten to ISO; anything else must be there as written). */
function grounded(f: Field, v: unknown, source: string): boolean {
  if (typeof v !== 'string') return true;
  if (f.schema.format === 'date' || f.schema.format === 'date-time') return true;
  return source.includes(flat(v));
}

/**
 * A value of the model's with what the source does not contain taken out: a scalar not in it becomes null, an
 * array keeps the values in it (null when none is), an object keeps its fields so checked (null when none is left).
 * `dropped` says whether anything was taken out.
 */
function keepGrounded(f: Field, v: unknown, source: string): { value: unknown; dropped: boolean } {
  if (v === null || v === undefined) return { value: null, dropped: false };
  if (f.array && Array.isArray(v)) {
    const kept = v.map((x) => keepGrounded({ ...f, array: false }, x, source));
    const values = kept.map((k) => k.value).filter((x) => x !== null);
    return { value: values.length ? values : null, dropped: kept.some((k) => k.dropped) };
  }
  if (f.type === 'object' && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    let dropped = false;
    let any = false;
    const out: Record<string, unknown> = {};
    for (const s of f.fields!) {
      const k = keepGrounded(s, o[s.name] ?? null, source);
      out[s.name] = k.value;
      dropped ||= k.dropped;
      any ||= k.value !== null;
    }
    return { value: any ? out : null, dropped };
  }
  return grounded(f, v, source) ? { value: v, dropped: false } : { value: null, dropped: true };
}

const validators = new WeakMap<Field[], ValidateFunction>();

export interface ModelExtraction extends Mapped {
  usage: Usage;
  attempts: number;
  /** Values the model gave that the source does not contain, dropped. */
  dropped: string[];
}

export async function extractWithModel(llm: LlmSettings, fields: Field[], text: string, local: Mapped, signal?: AbortSignal): Promise<ModelExtraction> {
  let validate = validators.get(fields);
  if (!validate) validators.set(fields, (validate = ajvInstance().compile(resultSchema(fields))));
  let structured = true;
  let usage = noUsage();
  let last: { reply: string; problems: string[] } | undefined;
  let value: Record<string, unknown> | undefined;
  let attempts = 0;
  while (attempts < MODEL_ATTEMPTS) {
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: task(fields, text) },
      ...(last ? [{ role: 'assistant' as const, content: last.reply }, { role: 'user' as const, content: `That reply does not fit the fields: ${last.problems.join('; ')}. Reply with the JSON object only, each field its type or null.` }] : []),
    ];
    let reply;
    try {
      reply = await callModel(llm, messages, {
        signal,
        ...(structured ? { responseFormat: { type: 'json_schema', json_schema: { name: 'extraction', strict: true, schema: resultSchema(fields, true) } } } : {}),
      });
    } catch (err) {
      if (structured && refusedRequest(err)) {
        structured = false; // no structured output on this server: the same attempt, JSON read from the reply
        continue;
      }
      throw err;
    }
    attempts++;
    usage = addUsage(usage, reply.usage);
    const parsed = readJson(reply.text);
    if (validate(parsed)) {
      value = parsed as Record<string, unknown>;
      break;
    }
    const problems = parsed === undefined ? ['it is not a JSON object'] : (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
    last = { reply: reply.text.slice(0, 4000), problems };
  }
  if (!value) {
    throw new ContentShapeError(`The model's reply missed the schema ${MODEL_ATTEMPTS} times: ${last?.problems.join('; ') ?? ''}`, usage, { problems: last?.problems ?? [], attempts });
  }
  const source = flat(text);
  const out: ModelExtraction = { data: {}, sources: {}, missing: [], dropped: [], usage, attempts };
  for (const f of fields) {
    const mine = local.sources[f.name];
    const kept = keepGrounded(f, value[f.name] ?? null, source);
    if (kept.dropped) out.dropped.push(f.name);
    const v = kept.value;
    if (mine && (mine.confidence >= STRUCTURED_CONFIDENCE || v === null)) {
      out.data[f.name] = local.data[f.name];
      out.sources[f.name] = mine;
    } else if (v !== null) {
      out.data[f.name] = v;
      out.sources[f.name] = { source: 'llm', confidence: MODEL_CONFIDENCE };
    } else {
      out.data[f.name] = null;
      out.missing.push(f.name);
    }
  }
  return out;
}
