// JSON-RPC messages read off an SSE response body (a subscriptions/listen stream) as they come.

/** Reads JSON-RPC messages off an SSE response body as they come. */
export function sseMessages(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const seen: any[] = [];
  let buffer = '';
  let comments = 0;
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (frame.startsWith(':')) comments++;
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (data) seen.push(JSON.parse(data.slice(6)));
      }
    }
  })();
  return { seen, comments: () => comments, stop: () => reader.cancel().catch(() => undefined), pump };
}
