// Raw JSON-RPC over HTTP for the A2A tests: plain calls, and SSE streams read event by event; the messages they send.
import { Role } from 'a2a-sdk-v1';

export interface RpcReply {
  status: number;
  contentType: string | null;
  body: any;
}

export async function rpcRaw(base: string, body: string, headers: Record<string, string> = {}): Promise<RpcReply> {
  const res = await fetch(`${base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text
  }
  return { status: res.status, contentType: res.headers.get('content-type'), body: parsed };
}

let next = 1;
export const rpc = (base: string, method: string, params?: unknown, headers: Record<string, string> = {}) =>
  rpcRaw(base, JSON.stringify({ jsonrpc: '2.0', id: next++, method, ...(params === undefined ? {} : { params }) }), headers);

/** A streaming call: resolves with every `data:` payload once the server ends the stream. */
export async function rpcStream(base: string, method: string, params: unknown, headers: Record<string, string> = {}): Promise<any[]> {
  const res = await fetch(`${base}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'stream-1', method, params }),
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error(`not a stream: ${res.status} ${await res.text()}`);
  return parseSse(await res.text());
}

export const parseSse = (text: string): any[] =>
  text
    .split('\n\n')
    .map((e) => e.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'))
    .filter(Boolean)
    .map((d) => JSON.parse(d));

/** Opens a stream and hands back events as they arrive (for streams that stay open). */
export async function openStream(base: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const res = await fetch(`${base}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'open-1', method, params }),
    signal: ac.signal,
  });
  const events: any[] = [];
  let ended = false;
  const done = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buf += value;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          events.push(...parseSse(buf.slice(0, i + 2)));
          buf = buf.slice(i + 2);
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return { events, done, ended: () => ended, close: () => ac.abort() };
}

export const userText = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: 'message', messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'user', parts: [{ kind: 'text', text }], ...extra },
});

export const userData = (tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  message: { kind: 'message', messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'user', parts: [{ kind: 'data', data: { tool, arguments: args } }], ...extra },
});

/** v1.0 wire params: a user message of one text part (`extra` goes into the message: contextId, taskId…). */
export const v1Text = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
});

/** The official 1.x client's Part, as its generated types spell one (every field present). */
export const sdkPart = (content: unknown) => ({ content, metadata: undefined, filename: '', mediaType: '' });

/** The official 1.x client's user Message of one text part (`extra`: contextId, taskId…). */
export const sdkText = (text: string, extra: Record<string, unknown> = {}) =>
  ({ messageId: `m-${Math.random().toString(36).slice(2)}`, role: Role.ROLE_USER, parts: [sdkPart({ $case: 'text', value: text })], ...extra }) as never;
