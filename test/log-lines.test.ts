// The log's line buffer: lines reach the stream in order, gathered until the threshold, and all of them on a flush.
import { describe, expect, it } from 'vitest';
import { LineBuffer, type LineSink } from '../src/log-lines.js';

function sink() {
  const chunks: string[] = [];
  let synced = 0;
  const s: LineSink = {
    write: (chunk) => (chunks.push(chunk), true),
    flushSync: () => void synced++,
  };
  return { s, chunks, synced: () => synced };
}

describe('the log line buffer', () => {
  it('holds lines until they reach the threshold, then hands them on as one chunk, in order', () => {
    const out = sink();
    const b = new LineBuffer(out.s, 20);
    b.write('{"a":1}\n');
    b.write('{"b":2}\n');
    expect(out.chunks).toEqual([]);
    b.write('{"c":3}\n');
    expect(out.chunks).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n']);
    b.write('{"d":4}\n');
    expect(out.chunks).toHaveLength(1);
  });

  it('hands on whatever it holds when flushed, and syncs the stream at exit', () => {
    const out = sink();
    const b = new LineBuffer(out.s, 4096);
    b.flush();
    expect(out.chunks).toEqual([]);
    b.write('one\n');
    b.flush();
    b.write('two\n');
    b.flushSync();
    expect(out.chunks).toEqual(['one\n', 'two\n']);
    expect(out.synced()).toBe(1);
  });
});
