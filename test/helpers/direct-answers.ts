// For the tests of the direct tools/call paths (modern-direct, session-direct): an answer as compared with the
// SDK's, and the error cases every direct path must answer as the SDK does.
import { expect } from 'vitest';

export interface Answer {
  status: number;
  type: string | null;
  message: Record<string, unknown>;
}

/** The JSON of a tool result's first text block. */
export const textOf = (a: Answer) => JSON.parse(((a.message.result as { content: { text: string }[] }).content[0]).text);

/** The direct answer and the SDK's to the same call. */
export type Both = (name: string, args: unknown) => Promise<[Answer, Answer]>;

/** An anonymous owner call, invalid arguments and an unknown tool: each answered as the SDK answers it. */
export async function expectErrorsAsTheSdk(both: Both): Promise<void> {
  const [anon, anonSdk] = await both('memory_get', { namespace: 'notes', key: 'plan' });
  expect(anon).toEqual(anonSdk);
  expect(textOf(anon).error.code).toBe('unauthorized');
  const [invalid, invalidSdk] = await both('base64', { action: 'sideways' });
  expect(invalid).toEqual(invalidSdk);
  expect(textOf(invalid).status).toBe(422);
  const [unknown, unknownSdk] = await both('no_such_tool', {});
  expect(unknown).toEqual(unknownSdk);
  expect(unknown.message.error).toMatchObject({ code: -32602, message: 'Tool no_such_tool not found' });
}
