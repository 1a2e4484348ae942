// MCP resources are data, like tools: a resource is read by calling a registry tool. resources/ holds the
// definitions and src/mcp serves them; the types live here, beside the tool type, so a capability never
// imports an adapter to describe itself.

export interface ResourceDef {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
  /** Registry tool whose result is the resource's content, and its input. */
  tool: string;
  input?: Record<string, unknown>;
  /** `_meta` of the resource, in its listing and on its contents when read (an MCP App view's `ui.csp`). */
  meta?: Record<string, unknown>;
}

/** A registry tool that lists per-caller resources: returns `{resources: [{uri, name, description?, mimeType}]}`. */
export interface ResourceListerDef {
  tool: string;
}

export interface ResourceTemplateDef {
  /** RFC 6570 level-1 template, e.g. `agent://{handle}/profile`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
  tool: string;
  /** The variable naming the agent the resource belongs to: its owner may subscribe before the resource exists. */
  ownerVariable?: string;
}
