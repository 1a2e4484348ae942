// The hand check of plain send params (src/a2a/plain-send.ts) against the zod schema it stands in for: whatever it
// accepts, zod accepts with the same result, keys in the same order; it never accepts what zod refuses; and the
// common shapes the SDKs send take the hand path.
import { describe, expect, it } from 'vitest';
import { MessageSendParams } from '../../src/a2a/params.js';
import { plainMessageSend } from '../../src/a2a/plain-send.js';
import { fromV1Send } from '../../src/a2a/v1.js';

/** JSON with undefined values and key order kept, so two results compare exactly. */
const exact = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x === undefined ? '__undefined__' : x));

const text = (t: string) => ({ kind: 'text', text: t });
const base = () => ({ kind: 'message', messageId: 'm-1', role: 'user', parts: [text('convert 255 to base 2')] });

/** Variations of each field: ones zod accepts, ones it refuses, and ones outside the plain kind. */
const MESSAGE_VARIANTS: ((m: Record<string, unknown>) => void)[] = [
  () => {},
  (m) => delete m.kind,
  (m) => (m.kind = 'task'),
  (m) => (m.messageId = ''),
  (m) => (m.messageId = 'x'.repeat(200)),
  (m) => (m.messageId = 'x'.repeat(201)),
  (m) => (m.messageId = 7),
  (m) => (m.role = 'agent'),
  (m) => delete m.role,
  (m) => (m.parts = []),
  (m) => (m.parts = Array.from({ length: 50 }, (_, i) => text(String(i)))),
  (m) => (m.parts = Array.from({ length: 51 }, (_, i) => text(String(i)))),
  (m) => (m.parts = [text('a'), text('')]),
  (m) => (m.parts = [text('y'.repeat(100_000))]),
  (m) => (m.parts = [text('y'.repeat(100_001))]),
  (m) => (m.parts = [{ text: 'no kind' }]),
  (m) => (m.parts = [{ kind: 'text', text: 5 }]),
  (m) => (m.parts = [{ kind: 'text', text: 'x', metadata: { a: 1 } }]),
  (m) => (m.parts = [{ kind: 'text', text: 'x', extra: 1 }]),
  (m) => (m.parts = [{ kind: 'data', data: { tool: 'uuid' } }]),
  (m) => (m.parts = [{ kind: 'file', file: { uri: 'https://example.com/a' } }]),
  (m) => (m.parts = 'text'),
  (m) => (m.contextId = 'ctx-1'),
  (m) => (m.contextId = ''),
  (m) => (m.contextId = undefined),
  (m) => (m.taskId = 'task-1'),
  (m) => (m.taskId = null),
  (m) => (m.metadata = { a: 1 }),
  (m) => (m.referenceTaskIds = ['t']),
  (m) => (m.extensions = ['e']),
  (m) => (m.unknown = true),
  (m) => Object.defineProperty(m, '__proto__', { value: { x: 1 }, enumerable: true, configurable: true, writable: true }),
];

const PARAM_VARIANTS: ((p: Record<string, unknown>) => void)[] = [
  () => {},
  (p) => (p.configuration = {}),
  (p) => (p.configuration = { blocking: false }),
  (p) => (p.configuration = { blocking: 'no' }),
  (p) => (p.configuration = { historyLength: 0 }),
  (p) => (p.configuration = { historyLength: 3, blocking: true, acceptedOutputModes: ['text/plain', 'application/json'] }),
  (p) => (p.configuration = { acceptedOutputModes: ['text/plain'], historyLength: 1 }),
  (p) => (p.configuration = { historyLength: -1 }),
  (p) => (p.configuration = { historyLength: 1.5 }),
  (p) => (p.configuration = { historyLength: 2 ** 60 }),
  (p) => (p.configuration = { acceptedOutputModes: Array(51).fill('a') }),
  (p) => (p.configuration = { acceptedOutputModes: ['m'.repeat(201)] }),
  (p) => (p.configuration = { acceptedOutputModes: [1] }),
  (p) => (p.configuration = { pushNotificationConfig: { url: 'https://x' } }),
  (p) => (p.configuration = { other: 1 }),
  (p) => (p.configuration = null),
  (p) => (p.configuration = []),
  (p) => (p.metadata = { a: 1 }),
  (p) => (p.unknown = 1),
  (p) => (p.message = null),
  (p) => (p.message = [base()]),
  (p) => delete p.message,
];

function check(params: unknown): 'plain' | 'zod' {
  const zod = MessageSendParams.safeParse(params ?? {});
  const plain = plainMessageSend(params);
  if (plain === undefined) return 'zod';
  expect(zod.success, exact(params)).toBe(true);
  expect(exact(plain), exact(params)).toBe(exact(zod.data));
  return 'plain';
}

describe('plain send params', () => {
  it('give what the zod schema gives, for every combination of the variations', () => {
    let plain = 0;
    for (const mv of MESSAGE_VARIANTS) {
      for (const pv of PARAM_VARIANTS) {
        for (const mv2 of [() => {}, ...MESSAGE_VARIANTS.slice(20, 27)]) {
          const m: Record<string, unknown> = base();
          mv(m);
          mv2(m);
          const p: Record<string, unknown> = { message: m };
          pv(p);
          if (check(p) === 'plain') plain++;
        }
      }
    }
    // Some of them, and not all, are plain.
    expect(plain).toBeGreaterThan(100);
    for (const odd of [undefined, null, 1, 'x', [], {}, { message: undefined }]) expect(check(odd)).toBe('zod');
  });

  it('key order follows the schema, not the request', () => {
    const p = { configuration: { blocking: true, historyLength: 2 }, message: { taskId: 't', parts: [{ text: 'x', kind: 'text' }], contextId: 'c', role: 'user', messageId: 'm', kind: 'message' } };
    expect(check(p)).toBe('plain');
    expect(Object.keys(plainMessageSend(p)!.message)).toEqual(['kind', 'messageId', 'role', 'parts', 'contextId', 'taskId']);
  });

  it('the shapes the SDKs send take the hand path, v0.3 and v1.0', () => {
    // @a2a-js/sdk 0.3.x: kind, messageId, role, parts; with a configuration from sendMessage's options.
    expect(check({ message: base() })).toBe('plain');
    expect(check({ message: { ...base(), contextId: 'c' }, configuration: { blocking: true, acceptedOutputModes: ['text/plain'] } })).toBe('plain');
    // 1.x over JSON-RPC and HTTP+JSON, after fromV1Send.
    expect(check(fromV1Send({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'convert 255 to base 2' }] } }))).toBe('plain');
    expect(check(fromV1Send({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'q' }] }, configuration: { returnImmediately: false, historyLength: 1 } }))).toBe('plain');
  });
});
