// A streamed chat completion as a tool result: the `data:` payloads of the SSE stream, in order. The chat
// endpoint writes each as one event and ends with `data: [DONE]`; the registry only passes the object on.

export interface ChatStream {
  kind: 'chat_stream';
  /** JSON text of each chunk (or an error object), without the `data: ` prefix and without [DONE]. */
  events: AsyncIterable<string>;
}

export const isChatStream = (v: unknown): v is ChatStream =>
  typeof v === 'object' && v !== null && (v as ChatStream).kind === 'chat_stream' && Symbol.asyncIterator in Object((v as ChatStream).events);
