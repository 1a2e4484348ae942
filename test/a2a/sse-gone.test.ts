// A stream opened for a client that has already gone (it disconnected while the caller was looked up, so the
// response's 'close' fired before anyone listened) is closed at once and reports so to its opener, which would
// otherwise hold its slot among the open streams, and its client's share of them, for ever.
import { PassThrough } from 'node:stream';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { jsonRpcFraming, SseStream } from '../../src/a2a/sse.js';

const responseLike = (destroyed: boolean) => Object.assign(new PassThrough(), { destroyed, writeHead: () => undefined }) as unknown as ServerResponse;

describe('an A2A stream whose client is gone', () => {
  it('is closed and calls its onClose once, after the opener has counted it', async () => {
    let closes = 0;
    const s = new SseStream(responseLike(true), jsonRpcFraming(1), (e) => e, () => closes++);
    expect(s.open).toBe(false);
    expect(closes).toBe(0); // not yet: the opener adds it to its tables first
    await Promise.resolve();
    expect(closes).toBe(1);
  });

  it('stays open while its client is there, and closes when the response does', async () => {
    let closes = 0;
    const res = responseLike(false);
    const s = new SseStream(res, jsonRpcFraming(1), (e) => e, () => closes++);
    await Promise.resolve();
    expect(s.open).toBe(true);
    expect(closes).toBe(0);
    (res as unknown as PassThrough).emit('close');
    expect(s.open).toBe(false);
    expect(closes).toBe(1);
  });
});
