// A tool's questions for the client (`inputs`, registry/ask-step.ts), in rounds: forms, completions by the client's
// model (sampling) and its roots. On 2026-07-28 each round is an input_required result whose requestState carries
// the answers so far, signed and bound to the call; in a 2025-era session the client is asked on the call's own
// stream. A question the client cannot answer is passed over when optional, and refused (MissingRequiredClient-
// Capability, -32021) when required; REST cannot ask at all.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import type { FormAnswer, InputRound, RootsAnswer, SampleAnswer } from '../../src/registry/types.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { modernPost } from '../helpers/modern-mcp.js';

let runs = 0;
const toolset = 'input-rounds-test';

/** Two rounds: the person's name, then a line from the client's model that uses it. */
const plan = defineTool({
  name: 'ir_plan',
  toolset,
  description: 'Asks a name, then a line about it from the client model.',
  input: z.object({ topic: z.string() }),
  auth: 'public',
  expose: { catalog: true },
  inputs: (input, got): InputRound | null => {
    if (!('who' in got)) return { who: { kind: 'form', form: { message: 'Your name?', fields: { name: { type: 'string' } }, required: ['name'] } } };
    const name = (got.who as FormAnswer).content?.name;
    if (!('line' in got)) return { line: { kind: 'sample', sample: { messages: [{ role: 'user', text: `A line on ${input.topic} for ${String(name)}` }], maxTokens: 40 } } };
    return null;
  },
  handler: (input, ctx) => {
    runs++;
    return { topic: input.topic, who: ctx.answers?.who, line: ctx.answers?.line };
  },
});

const roots = defineTool({
  name: 'ir_roots',
  toolset,
  description: 'Counts the client roots when it can tell them.',
  input: z.object({}),
  auth: 'public',
  expose: { catalog: true },
  inputs: (_input, got) => ('roots' in got ? null : { roots: { kind: 'roots', optional: true } }),
  handler: (_input, ctx) => ({ roots: (ctx.answers?.roots as RootsAnswer | undefined)?.roots ?? null }),
});

let erased = 0;
const erase = defineTool({
  name: 'ir_erase',
  toolset,
  description: 'Confirms, then asks why, then erases.',
  input: z.object({}),
  auth: 'public',
  confirm: () => ({ message: 'Erase everything?' }),
  inputs: (_input, got) => ('why' in got ? null : { why: { kind: 'form', form: { message: 'Why?', fields: { reason: { type: 'string' } }, required: ['reason'] } } }),
  handler: (_input, ctx) => ({ erased: ++erased, reason: (ctx.answers?.why as FormAnswer).content?.reason }),
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ additions: { tools: [plan, roots, erase] } });
});
afterAll(async () => gw.cleanup());

const CAN_ALL = { elicitation: { form: {} }, sampling: {}, roots: {} };
const named = (name: string) => ({ action: 'accept', content: { name } });
const completion = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' });

async function call(name: string, args: Record<string, unknown>, capabilities: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const res = await modernPost(gw.url, 'tools/call', { name, arguments: args, ...more }, { capabilities });
  return { status: res.status, body: (await res.json()) as { result?: any; error?: { code: number; message: string; data?: any } } };
}

describe('2026-07-28: rounds as input_required results', () => {
  it('asks round by round, carrying the answers in a signed requestState, and runs the handler once with all of them', async () => {
    const before = runs;
    const r1 = (await call('ir_plan', { topic: 'tea' }, CAN_ALL)).body.result;
    expect(r1.resultType).toBe('input_required');
    expect(Object.keys(r1.inputRequests)).toEqual(['who']);
    expect(r1.inputRequests.who.method).toBe('elicitation/create');
    expect(typeof r1.requestState).toBe('string');

    const r2 = (await call('ir_plan', { topic: 'tea' }, CAN_ALL, { inputResponses: { who: named('Ada') }, requestState: r1.requestState })).body.result;
    expect(r2.resultType).toBe('input_required');
    expect(r2.inputRequests.line).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 40, messages: [{ role: 'user', content: { type: 'text', text: 'A line on tea for Ada' } }] } });
    expect(r2.requestState).not.toBe(r1.requestState);
    expect(runs).toBe(before);

    // Only the last round's response is sent again: the first comes back in the state.
    const done = (await call('ir_plan', { topic: 'tea' }, CAN_ALL, { inputResponses: { line: completion('Tea for Ada.') }, requestState: r2.requestState })).body.result;
    expect(done.resultType).toBe('complete');
    expect(done.structuredContent).toEqual({ topic: 'tea', who: { action: 'accept', content: { name: 'Ada' } }, line: { text: 'Tea for Ada.', model: 'test-model' } satisfies SampleAnswer });
    expect(runs).toBe(before + 1);
  });

  it('refuses state issued for other arguments, or tampered with, as invalid params', async () => {
    const r1 = (await call('ir_plan', { topic: 'tea' }, CAN_ALL)).body.result;
    const r2 = (await call('ir_plan', { topic: 'tea' }, CAN_ALL, { inputResponses: { who: named('Ada') }, requestState: r1.requestState })).body.result;
    const other = await call('ir_plan', { topic: 'coffee' }, CAN_ALL, { inputResponses: { line: completion('x') }, requestState: r2.requestState });
    expect(other.body.error?.code).toBe(-32602);
    const tampered = await call('ir_plan', { topic: 'tea' }, CAN_ALL, { inputResponses: { line: completion('x') }, requestState: `${r2.requestState}x` });
    expect(tampered.body.error?.code).toBe(-32602);
  });

  it('a required question the client cannot answer is MissingRequiredClientCapability, HTTP 400', async () => {
    // Declares nothing it could answer (the direct path).
    const none = await call('ir_plan', { topic: 'tea' }, {});
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    // Fills forms but has no model: refused at the round that needs one.
    const r1 = (await call('ir_plan', { topic: 'tea' }, { elicitation: {} })).body.result;
    const noModel = await call('ir_plan', { topic: 'tea' }, { elicitation: {} }, { inputResponses: { who: named('Ada') }, requestState: r1.requestState });
    expect(noModel.status).toBe(400);
    expect(noModel.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('an optional question is asked only of a client that can answer it', async () => {
    expect((await call('ir_roots', {}, { elicitation: {} })).body.result.structuredContent).toEqual({ roots: null });
    const asked = (await call('ir_roots', {}, { roots: {} })).body.result;
    expect(asked.inputRequests.roots).toEqual({ method: 'roots/list', params: {} });
    const told = (await call('ir_roots', {}, { roots: {} }, { inputResponses: { roots: { roots: [{ uri: 'file:///a', name: 'A' }] } }, requestState: asked.requestState })).body.result;
    expect(told.structuredContent).toEqual({ roots: [{ uri: 'file:///a', name: 'A' }] });
  });

  it('a confirmation answered in an earlier round is carried with the answers: only the last round is resent', async () => {
    const before = erased;
    const r1 = (await call('ir_erase', {}, { elicitation: {} })).body.result;
    expect(Object.keys(r1.inputRequests)).toEqual(['confirm']);
    const r2 = (await call('ir_erase', {}, { elicitation: {} }, { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } })).body.result;
    expect(Object.keys(r2.inputRequests)).toEqual(['why']);
    const done = (await call('ir_erase', {}, { elicitation: {} }, { inputResponses: { why: { action: 'accept', content: { reason: 'spring cleaning' } } }, requestState: r2.requestState })).body.result;
    expect(done.structuredContent).toEqual({ erased: before + 1, reason: 'spring cleaning' });
  });
});

describe('adapters that cannot ask', () => {
  it('REST refuses a tool with required questions (400) and runs one whose questions are optional', async () => {
    const refused = await api(gw.url, 'POST', '/tools/ir_plan', { body: { topic: 'tea' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'capability_required', needs: ['form'] });
    expect((await api(gw.url, 'POST', '/tools/ir_roots', { body: {} })).body).toEqual({ roots: null });
  });
});

describe('a 2025-era session', () => {
  it('puts each round to the client on the call: a form, then a completion; the roots when asked', async () => {
    const client = new Client({ name: 'rounds', version: '1' }, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async () => (asked.push('elicit'), { action: 'accept', content: { name: 'Grace' } }));
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.push(`sample: ${(req.params.messages[0].content as { text: string }).text}`);
      return { role: 'assistant', content: { type: 'text', text: 'Coffee for Grace.' }, model: 'm' };
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => (asked.push('roots'), { roots: [{ uri: 'file:///w' }] }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
    try {
      const r = (await client.callTool({ name: 'ir_plan', arguments: { topic: 'coffee' } })) as { structuredContent: any };
      expect(asked).toEqual(['elicit', 'sample: A line on coffee for Grace']);
      expect(r.structuredContent.line).toEqual({ text: 'Coffee for Grace.', model: 'm' });
      const rr = (await client.callTool({ name: 'ir_roots', arguments: {} })) as { structuredContent: any };
      expect(rr.structuredContent).toEqual({ roots: [{ uri: 'file:///w' }] });
    } finally {
      await client.close();
    }
  });
});
