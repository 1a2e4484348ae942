// Argument completion (`completion/complete`), the same in both eras: values for prompt arguments and for the
// variables of resource templates, drawn from what the caller can actually use: its own handle first, then
// other agents' handles; the namespaces and keys of its own memory; the slugs of a catalogue. Every value comes
// through a registry tool with the caller's credentials, so a completion never shows what a read would refuse.
import type { Credentials } from '../registry/types.js';
import type { McpCatalog } from './mcp-catalog.js';

/** At most this many values in one answer (the protocol's limit). */
const MAX_VALUES = 100;

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface Completion {
  [k: string]: unknown;
  values: string[];
  total: number;
  hasMore: boolean;
}

type Call = (tool: string, input: Record<string, unknown>) => Promise<unknown>;

const safely = async <T>(fn: () => Promise<T>, fallback: T): Promise<T> => {
  try {
    return await fn();
  } catch {
    return fallback; // a caller without the credentials a source needs just gets no values from it
  }
};

async function handles(call: Call, own: string | null): Promise<string[]> {
  const listed = await safely(async () => ((await call('agent_list', { limit: 200 })) as { agents: { handle: string }[] }).agents.map((a) => a.handle), []);
  return own ? [own, ...listed.filter((h) => h !== own)] : listed;
}

/** The caller's own memory entries as [namespace, key] pairs (from the memory resource lister). */
async function ownEntries(call: Call): Promise<[string, string][]> {
  const listed = await safely(async () => ((await call('memory_resources', {})) as { resources: { uri: string }[] }).resources, []);
  return listed.flatMap((r) => {
    const m = /^memory:\/\/[^/]+\/([^/]+)\/(.+)$/.exec(r.uri);
    return m ? [[decodeURIComponent(m[1]), decodeURIComponent(m[2])] as [string, string]] : [];
  });
}

/** Slugs of the items a catalogue lists, wherever in its result they sit (one array of objects with `slug`). */
function slugsOf(result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return [];
  for (const v of Object.values(result)) {
    if (Array.isArray(v) && v.some((x) => typeof x?.slug === 'string')) return v.filter((x) => typeof x?.slug === 'string').map((x) => x.slug as string);
  }
  return [];
}

async function candidates(catalog: McpCatalog, ref: CompletionRef, name: string, context: Record<string, string>, call: Call, own: string | null): Promise<string[]> {
  if (ref.type === 'ref/prompt') {
    const prompt = catalog.prompts.find((p) => p.name === ref.name);
    // `get_started` asks for a handle to claim: naming taken ones would not help.
    if (!prompt || name !== 'handle' || prompt.name === 'get_started') return [];
    return handles(call, own);
  }
  const template = catalog.resourceTemplates.find((t) => t.uriTemplate === ref.uri);
  if (!template) return [];
  if (name === 'handle') return handles(call, own);
  if (name === 'namespace') return [...new Set((await ownEntries(call)).map(([ns]) => ns))];
  if (name === 'key') return (await ownEntries(call)).filter(([ns]) => !context.namespace || ns === context.namespace).map(([, key]) => key);
  if (name === 'slug') {
    const list = catalog.resources.find((r) => `${r.uri}/{slug}` === template.uriTemplate);
    return list ? safely(async () => slugsOf(await call(list.tool, list.input ?? {})), []) : [];
  }
  return [];
}

/** Values for argument `name` starting with `value` (case-insensitive), in the order they are most useful. */
export async function complete(
  catalog: McpCatalog,
  ref: CompletionRef,
  argument: { name: string; value: string },
  context: Record<string, string>,
  credentials: Credentials,
): Promise<Completion> {
  const { registry } = catalog;
  const caller = await registry.resolve(credentials);
  const call: Call = async (tool, input) => (await registry.call(tool, input, credentials)).result;
  const prefix = argument.value.toLowerCase();
  const all = (await candidates(catalog, ref, argument.name, context, call, caller.agent?.handle ?? null)).filter((v) => v.toLowerCase().startsWith(prefix));
  return { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES };
}
