// A small path router on node:http: a segment tree per path with a handler per method. It replaces express
// on the request path (see docs/decisions/foundation.md: express cost more than everything else per request).
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Matched {
  params: Record<string, string>;
  /** The route template, for logs (never the raw URL). */
  template: string;
}

export type RawHandler = (req: IncomingMessage, res: ServerResponse, m: Matched, rawQuery: string) => void | Promise<void>;

interface Node {
  statics: Map<string, Node>;
  param?: { name: string; node: Node };
  methods: Map<string, { handler: RawHandler; template: string }>;
}

const newNode = (): Node => ({ statics: new Map(), methods: new Map() });

export type Lookup =
  | { kind: 'found'; handler: RawHandler; matched: Matched }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

export class Router {
  private readonly root = newNode();

  /** Adds a handler for `method` on an OpenAPI-style template such as `/agents/{handle}`. */
  add(method: string, template: string, handler: RawHandler): void {
    let node = this.root;
    for (const seg of template.split('/').slice(1)) {
      const p = /^\{(\w+)\}$/.exec(seg);
      if (p) {
        if (node.param && node.param.name !== p[1]) throw new Error(`conflicting parameter names at ${template}`);
        node.param ??= { name: p[1], node: newNode() };
        node = node.param.node;
      } else {
        let next = node.statics.get(seg);
        if (!next) node.statics.set(seg, (next = newNode()));
        node = next;
      }
    }
    if (node.methods.has(method)) throw new Error(`duplicate route ${method} ${template}`);
    node.methods.set(method, { handler, template });
  }

  lookup(method: string, path: string): Lookup {
    const segs = path.split('/').slice(1);
    const want = method === 'HEAD' ? 'GET' : method;
    const params: Record<string, string> = {};
    const node = this.walk(this.root, segs, 0, params, want);
    if (node) {
      const m = node.methods.get(want)!;
      return { kind: 'found', handler: m.handler, matched: { params, template: m.template } };
    }
    // No route takes this method: say which methods the path does take, if any.
    const any = this.walk(this.root, segs, 0, {}, null);
    return any ? { kind: 'method_not_allowed', allow: [...any.methods.keys()] } : { kind: 'not_found' };
  }

  /**
   * Finds the node for a path that has `method` (any method when null). Static segments win over
   * parameters; it backtracks when a static branch dead-ends, so `PUT /memory/ns/share` reaches
   * `/memory/{namespace}/{key}` although `/memory/{namespace}/share` exists for POST.
   */
  private walk(node: Node, segs: string[], i: number, params: Record<string, string>, method: string | null): Node | null {
    if (i === segs.length) return (method === null ? node.methods.size > 0 : node.methods.has(method)) ? node : null;
    const seg = segs[i];
    const s = node.statics.get(seg);
    if (s) {
      const found = this.walk(s, segs, i + 1, params, method);
      if (found) return found;
    }
    if (node.param && seg !== '') {
      let value: string;
      try {
        value = decodeURIComponent(seg);
      } catch {
        return null;
      }
      const found = this.walk(node.param.node, segs, i + 1, params, method);
      if (found) {
        params[node.param.name] = value;
        return found;
      }
    }
    return null;
  }
}

/** Query string → object; a repeated key becomes an array (like express's simple parser). */
export function parseQuery(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!raw) return out;
  for (const [k, v] of new URLSearchParams(raw)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev as string, v];
  }
  return out;
}
