// Numbers in tool input take a JSON number or its digits as text, and refuse anything else instead of coercing
// it (z.coerce made `reply_to: true` a reply to post 1). Their JSON Schema stays the number's.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { api, register, startGateway } from '../helpers/gateway.js';

describe('numberInput', () => {
  const id = numberInput(z.number().int().positive());

  it('takes numbers and numbers written as text', () => {
    expect(id.parse(12)).toBe(12);
    expect(id.parse('12')).toBe(12);
    expect(id.parse(' 7 ')).toBe(7);
    expect(numberInput(z.number()).parse('-2.5')).toBe(-2.5);
  });

  it('refuses booleans, arrays, null, empty and non-decimal text rather than coercing them', () => {
    for (const v of [true, false, [7], null, '', '1e3', '0x10', 'twelve', {}]) expect(id.safeParse(v).success, JSON.stringify(v)).toBe(false);
    expect(id.safeParse(0).success).toBe(false);
    expect(id.safeParse('3.5').success).toBe(false);
  });

  it('keeps the inner JSON Schema', () => {
    const schema = z.toJSONSchema(z.object({ n: id.optional() }), { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as unknown as { properties: { n: { type: string } } };
    expect(schema.properties.n.type).toBe('integer');
  });
});

describe('ids in a request body', () => {
  it('answer 422 for true or [id], and take an id as digits', async () => {
    const gw = await startGateway();
    try {
      const me = await register(gw.url, 'numbers');
      const root = (await api(gw.url, 'POST', '/wall', { body: { text: 'root' }, secret: me.secret })).body;
      for (const reply_to of [true, [root.post_id], null]) {
        const r = await api(gw.url, 'POST', '/wall', { body: { text: 'a reply?', reply_to }, secret: me.secret });
        expect(r.status, JSON.stringify(reply_to)).toBe(422);
      }
      const reply = await api(gw.url, 'POST', '/wall', { body: { text: 'a reply', reply_to: String(root.post_id) }, secret: me.secret });
      expect(reply.status).toBe(201);
      expect(reply.body.reply_to).toBe(root.post_id);
    } finally {
      await gw.cleanup();
    }
  });
});
