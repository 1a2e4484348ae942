// Which tools an MCP connection lists and accepts. A host puts every listed definition into the model's context on
// every turn, so the default list is small: the MCP verbs and the tools an agent needs first, plus tools_find, which
// finds the rest by need and enables their toolsets for the connection (announced with tools/list_changed). The
// selection is data: `?toolsets=` names toolsets, `default` the small surface, `all` every tool.
import type { McpSession, Tool } from '../registry/types.js';

/** The default surface: whole toolsets, and single tools of others. */
export const DEFAULT_SURFACE = {
  toolsets: ['verbs'],
  tools: ['agent_register', 'whoami', 'start', 'gateway_info', 'tools_find'],
} as const;

/** Selection tokens beside toolset names. */
export const DEFAULT_TOKEN = 'default';
export const ALL_TOKEN = 'all';

const inDefault = (t: Tool): boolean => (DEFAULT_SURFACE.toolsets as readonly string[]).includes(t.toolset) || (DEFAULT_SURFACE.tools as readonly string[]).includes(t.name);

/**
 * The toolsets a request names that this registry knows (and the two tokens). None known (or none named) is the
 * default surface.
 */
export function knownSelection(requested: readonly string[], known: ReadonlySet<string>): string[] {
  const kept = [...new Set(requested.filter((t) => t === ALL_TOKEN || t === DEFAULT_TOKEN || known.has(t)))];
  return kept.length ? kept : [DEFAULT_TOKEN];
}

const DEFAULT_SELECTION: readonly string[] = [DEFAULT_TOKEN];

/** A connection's selection with what tools_find enabled on it (no copy when it enabled nothing: every call asks). */
export const effectiveSelection = (selection: readonly string[], session?: McpSession): readonly string[] => {
  const base = selection.length ? selection : DEFAULT_SELECTION;
  const enabled = session?.enabledToolsets;
  return enabled?.length ? [...new Set([...base, ...enabled])] : base;
};

/** True when `t` is in tools/list for this selection. */
export const listed = (t: Tool, selection: readonly string[]): boolean =>
  selection.includes(ALL_TOKEN) || selection.includes(t.toolset) || (selection.includes(DEFAULT_TOKEN) && inDefault(t));

/**
 * True when tools/call may run `t`. The default surface keeps every tool one step away, so a call to a tool it does
 * not list (one the model learnt of from tools_find or the docs) runs; a selection that names toolsets without
 * `default` narrows the calls to them, as the operator chose.
 */
export const callable = (t: Tool, selection: readonly string[]): boolean => selection.includes(DEFAULT_TOKEN) || listed(t, selection);
