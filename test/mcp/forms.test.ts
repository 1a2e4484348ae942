// A tool's own form (`ask`): put to the person before the handler runs, through the same channel as confirmations
// (elicitation/create on a 2025-era exchange, input_required + inputResponses on 2026-07-28), the answer checked
// against the form and handed to the handler in ctx.answer; nobody is asked where the adapter cannot ask.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkAnswer } from '../../src/registry/ask-step.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { FormQuestion } from '../../src/registry/types.js';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';

const MODERN = '2026-07-28';
let runs = 0;

const form = (topic: string): FormQuestion => ({
  message: `Pick a flavour of ${topic}`,
  fields: {
    flavour: { type: 'string', title: 'Flavour', oneOf: [{ const: 'sweet', title: 'Sweet' }, { const: 'salty', title: 'Salty' }], default: 'sweet' },
    scoops: { type: 'integer', minimum: 1, maximum: 3, default: 1 },
    toppings: { type: 'array', items: { type: 'string', enum: ['nuts', 'sauce'] }, maxItems: 2 },
  },
  required: ['flavour'],
});

const pick = defineTool({
  name: 'ft_pick',
  toolset: 'forms-test',
  description: 'Asks for a flavour, unless told one.',
  input: z.object({ topic: z.string(), flavour: z.string().optional() }),
  auth: 'public',
  expose: { catalog: true },
  // Told the flavour in the input: nothing to ask.
  ask: (input) => (input.flavour ? null : form(input.topic)),
  handler: (input, ctx) => {
    runs++;
    return { flavour: input.flavour ?? null, answer: ctx.answer ?? null };
  },
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ additions: { tools: [pick] } });
});
afterAll(async () => gw.cleanup());

const result = (r: unknown) => r as { isError?: boolean; structuredContent: any; content: { text: string }[] };

async function legacyClient(answer?: (params: any) => unknown): Promise<{ client: Client; asked: any[] }> {
  const asked: any[] = [];
  const client = new Client({ name: 'forms', version: '1' }, { capabilities: answer ? { elicitation: {} } : {} });
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return answer(req.params) as never;
    });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
  return { client, asked };
}

async function modernCall(args: Record<string, unknown>, inputResponses?: unknown) {
  const res = await fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'ft_pick' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'ft_pick',
        arguments: args,
        ...(inputResponses ? { inputResponses } : {}),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: any }).result;
}

describe('a 2025-era client that declared elicitation', () => {
  it('gets the form as elicitation/create, and the handler the checked answer', async () => {
    const { client, asked } = await legacyClient(() => ({ action: 'accept', content: { flavour: 'salty', scoops: 2, toppings: ['nuts'] } }));
    try {
      const r = result(await client.callTool({ name: 'ft_pick', arguments: { topic: 'ice cream' } }));
      expect(asked).toHaveLength(1);
      expect(asked[0].message).toBe('Pick a flavour of ice cream');
      expect(asked[0].requestedSchema).toEqual({ type: 'object', properties: form('ice cream').fields, required: ['flavour'] });
      expect(r.structuredContent.answer).toEqual({ action: 'accept', content: { flavour: 'salty', scoops: 2, toppings: ['nuts'] } });
      // No question for this input: nobody is asked.
      const told = result(await client.callTool({ name: 'ft_pick', arguments: { topic: 'ice cream', flavour: 'sweet' } }));
      expect(asked).toHaveLength(1);
      expect(told.structuredContent).toEqual({ flavour: 'sweet', answer: null });
    } finally {
      await client.close();
    }
  });

  it('an answer outside the form is a 422 result, and the handler does not run', async () => {
    const { client } = await legacyClient(() => ({ action: 'accept', content: { flavour: 'bitter' } }));
    try {
      const before = runs;
      const r = result(await client.callTool({ name: 'ft_pick', arguments: { topic: 'tea' } }));
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ status: 422, error: { code: 'validation_error' } });
      expect(runs).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('a decline reaches the handler as such, without content', async () => {
    const { client } = await legacyClient(() => ({ action: 'decline' }));
    try {
      const r = result(await client.callTool({ name: 'ft_pick', arguments: { topic: 'tea' } }));
      expect(r.structuredContent.answer).toEqual({ action: 'decline' });
    } finally {
      await client.close();
    }
  });

  it('a client that cannot elicit is not asked: the handler runs with no answer', async () => {
    const { client } = await legacyClient();
    try {
      const r = result(await client.callTool({ name: 'ft_pick', arguments: { topic: 'tea' } }));
      expect(r.structuredContent).toEqual({ flavour: null, answer: null });
    } finally {
      await client.close();
    }
  });
});

describe('the 2026-07-28 round trip', () => {
  it('answers input_required under "ask" before the handler runs, then runs with the answer of the retry', async () => {
    const before = runs;
    const first = await modernCall({ topic: 'soup' });
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests.ask.method).toBe('elicitation/create');
    expect(first.inputRequests.ask.params.requestedSchema.properties.flavour.oneOf).toHaveLength(2);
    expect(runs).toBe(before);
    const done = await modernCall({ topic: 'soup' }, { ask: { action: 'accept', content: { flavour: 'sweet', scoops: 3 } } });
    expect(done.resultType).toBe('complete');
    expect(done.structuredContent.answer).toEqual({ action: 'accept', content: { flavour: 'sweet', scoops: 3 } });
    expect(runs).toBe(before + 1);
  });

  it('a retried answer that does not fit the form is a 422 naming the field, never a 500', async () => {
    const bad = await modernCall({ topic: 'soup' }, { ask: { action: 'accept', content: { flavour: 'sweet', scoops: 9, colour: 'red' } } });
    expect(bad.isError).toBe(true);
    const body = bad.structuredContent;
    expect(body.status).toBe(422);
    expect(body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['answer.content.scoops', 'answer.content.colour']);
    const noAction = await modernCall({ topic: 'soup' }, { ask: { action: 'maybe' } });
    expect(noAction.structuredContent).toMatchObject({ status: 422, error: { code: 'validation_error' } });
  });
});

describe('adapters that cannot ask', () => {
  it('REST runs the handler with no answer: the input must be enough alone', async () => {
    const r = await api(gw.url, 'POST', '/tools/ft_pick', { body: { topic: 'rest' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ flavour: null, answer: null });
  });
});

describe('checkAnswer', () => {
  const q = form('x');
  it('keeps only what the form allows', () => {
    expect(checkAnswer(q, { action: 'cancel', content: { anything: 1 } })).toEqual({ action: 'cancel' });
    expect(checkAnswer(q, { action: 'accept', content: { flavour: 'salty', toppings: [] } })).toEqual({ action: 'accept', content: { flavour: 'salty', toppings: [] } });
  });
  it('refuses a missing required field, a wrong type, a choice outside the list and too many items', () => {
    const issues = (content: unknown) => {
      try {
        checkAnswer(q, { action: 'accept', content });
        return [];
      } catch (err) {
        return (err as { detail: { loc: string[]; msg: string }[] }).detail.map((d) => `${d.loc.at(-1)}: ${d.msg}`);
      }
    };
    expect(issues({})).toEqual(['flavour: is required']);
    expect(issues({ flavour: 'sweet', scoops: 1.5 })).toEqual(['scoops: must be an integer']);
    expect(issues({ flavour: 'sweet', toppings: ['nuts', 'gravel'] })).toEqual(['toppings: may hold only nuts, sauce (not gravel)']);
    expect(issues({ flavour: 'sweet', toppings: ['nuts', 'sauce', 'nuts'] })).toEqual(['toppings: must hold at most 2']);
    expect(issues([1])).toEqual(['content: must be an object of the form\'s fields']);
  });
});
