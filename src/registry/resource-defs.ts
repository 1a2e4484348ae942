// MCP resources and prompts are data too: a resource is read by calling a registry tool, a prompt is a
// text template. resources/ and prompts/ hold the definitions; src/mcp serves them.

export interface ResourceDef {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
  /** Registry tool whose result is the resource's content, and its input. */
  tool: string;
  input?: Record<string, unknown>;
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
}

export interface PromptArg {
  name: string;
  description: string;
  required?: boolean;
}

export interface PromptDef {
  name: string;
  title?: string;
  description: string;
  arguments: PromptArg[];
  render(args: Record<string, string>): string;
}

/** Matches a concrete URI against a level-1 template; returns its variables or null. */
export function matchTemplate(template: string, uri: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]);
      return '([^/]+)';
    })
    .join('');
  const found = new RegExp(`^${pattern}$`).exec(uri);
  if (!found) return null;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1])]));
}
