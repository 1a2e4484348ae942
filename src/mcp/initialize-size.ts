// A 2025-era session keeps its initialize request's params for its whole life (the client's capabilities and info:
// in memory with the SDK's server, and on the shared store in its row), so they are bounded apart from the body:
// without it 120 sessions opened with 4 MB of `capabilities.experimental` took half a gigabyte of heap.
/** Hundreds of times what MCP clients send (about a kilobyte). */
export const MAX_INITIALIZE_PARAMS_BYTES = 64 * 1024;

/** The -32602 message for an initialize request whose params are too large to keep, or null. */
export function initializeTooLarge(message: { method?: unknown; params?: unknown }): string | null {
  if (message.method !== 'initialize' || message.params === undefined) return null;
  const size = Buffer.byteLength(JSON.stringify(message.params));
  if (size <= MAX_INITIALIZE_PARAMS_BYTES) return null;
  return `Invalid params: the initialize params take ${size} bytes; a session keeps at most ${MAX_INITIALIZE_PARAMS_BYTES}.`;
}
