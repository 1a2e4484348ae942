// The operator's webhook (GATEWAY_OPERATOR_WEBHOOK_URL) is signed without handing the receiver the operator token:
// with GATEWAY_OPERATOR_WEBHOOK_SECRET when set, else a key derived from the token. No delivery row holds the key,
// and an anonymous caller who parks a handoff puts no credential of the operator's into the database.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/egress/index.js';
import { api, startGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';

const OPERATOR = 'operator-webhook-token-0123456789';
const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let receiver: http.Server;
let hookUrl: string;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => (hooks.push({ headers: req.headers, body }), res.writeHead(200).end()));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/operator`;
});
afterAll(async () => new Promise((r) => receiver.close(r)));

/** Parks a handoff without credentials on a gateway with `env`; the delivery's row and the request the receiver got. */
async function parked(env: Record<string, string>) {
  const gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_OPERATOR_WEBHOOK_URL: hookUrl, ...env } });
  try {
    const r = await api(gw.url, 'POST', '/handoff', { body: { task: 'Look at this' } });
    expect(r.status).toBe(202);
    await gw.gateway.registry.services.scheduler.runDue();
    const told = await eventually(async () => {
      const h = hooks.find((x) => JSON.parse(x.body).handoff_id === r.body.handoff_id);
      if (!h) throw new Error('not told yet');
      return h;
    });
    const rows = await gw.gateway.db.all<{ secret: string; status: string }>("SELECT secret, status FROM webhook_deliveries WHERE source = 'operator'");
    return { told, rows };
  } finally {
    await gw.cleanup();
  }
}

const verifies = (key: string, h: { headers: http.IncomingHttpHeaders; body: string }) =>
  verifyWebhookSignature(key, String(h.headers['x-gateway-timestamp']), h.body, String(h.headers['x-gateway-signature']), 1e9);

describe('the operator webhook', () => {
  it('is signed with a key derived from the operator token, and no row holds the token', async () => {
    const { told, rows } = await parked({});
    expect(verifies(createHmac('sha256', OPERATOR).update('operator-webhook').digest('hex'), told)).toBe(true);
    expect(verifies(OPERATOR, told)).toBe(false);
    expect(rows).toEqual([{ secret: '', status: 'delivered' }]);
  });

  it('is signed with GATEWAY_OPERATOR_WEBHOOK_SECRET when it is set', async () => {
    const secret = 'whsec_operator_receiver_0123456789';
    const { told, rows } = await parked({ GATEWAY_OPERATOR_WEBHOOK_SECRET: secret });
    expect(verifies(secret, told)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });
});
