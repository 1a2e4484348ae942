// A2A JSON-RPC bodies for the load generator: message/send with a data part calling one tool.

/** A body factory for a blocking message/send calling `tool`, with a fresh request and message id each time. */
export function a2aToolSendBodies(tool: string, args: Record<string, unknown>): () => string {
  let id = 0;
  return () =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: `bench-${process.pid}-${id}`, role: 'user', parts: [{ kind: 'data', data: { tool, arguments: args } }] } },
    });
}

/** Checks one send completes its task before the load runs (a benchmark of errors measures nothing). */
export async function checkA2aSend(url: string, body: string, headers: Record<string, string> = {}): Promise<void> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const json = (await r.json()) as { result?: { status?: { state?: string } } };
  if (r.status !== 200 || json.result?.status?.state !== 'completed') throw new Error(`a2a message/send check failed: ${r.status} ${JSON.stringify(json).slice(0, 300)}`);
}
