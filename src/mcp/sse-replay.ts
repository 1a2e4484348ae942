// The events a 2025-era session's resumable SSE streams sent (SEP-1699), kept so a client that reconnects with
// Last-Event-ID gets what followed. Event ids are `<stream>-<seq>`: the stream is 0 for the session's standalone
// GET stream and one number per request stream, so an id alone says which stream to resume. Bounded by events and
// by bytes (GATEWAY_MCP_REPLAY_BYTES): the oldest events go first, and a client that comes back later than that has
// lost them, as over a dropped connection.

export interface EventId {
  stream: number;
  seq: number;
}

interface Stored extends EventId {
  frame: string;
}

export const parseEventId = (id: string): EventId | null => {
  const m = /^(\d{1,9})-(\d{1,9})$/.exec(id);
  return m ? { stream: Number(m[1]), seq: Number(m[2]) } : null;
};

export class SseReplay {
  private readonly events: Stored[] = [];
  private readonly seqs = new Map<number, number>();
  private readonly finished = new Set<number>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 1024 * 1024,
    private readonly max = 256,
  ) {}

  /** The next id of `stream`. */
  next(stream: number): string {
    const seq = (this.seqs.get(stream) ?? 0) + 1;
    this.seqs.set(stream, seq);
    return `${stream}-${seq}`;
  }

  /** An SSE frame with the next id of `stream`, kept for replay. */
  frame(stream: number, data: string, extra = ''): string {
    const id = this.next(stream);
    const frame = `id: ${id}\n${extra}data: ${data}\n\n`;
    this.events.push({ ...parseEventId(id)!, frame });
    this.bytes += frame.length;
    // The newest event stays whatever its size: it may be the answer a polling client comes back for.
    while (this.events.length > this.max || (this.bytes > this.maxBytes && this.events.length > 1)) {
      const old = this.events.shift()!;
      this.bytes -= old.frame.length;
      // A finished stream whose last event aged out is forgotten; a live one keeps counting.
      if (this.finished.has(old.stream) && !this.events.some((e) => e.stream === old.stream)) {
        this.finished.delete(old.stream);
        this.seqs.delete(old.stream);
      }
    }
    return frame;
  }

  /** The frames of the same stream sent after `after`, in order. */
  since(after: EventId): string[] {
    return this.events.filter((e) => e.stream === after.stream && e.seq > after.seq).map((e) => e.frame);
  }

  /** Whether `id` names an event this session could have sent. */
  knows(id: EventId): boolean {
    return id.seq <= (this.seqs.get(id.stream) ?? -1);
  }

  /** A stream that will send no more: its events stay for a client still to come back, then age out. */
  finish(stream: number): void {
    this.finished.add(stream);
  }
}
