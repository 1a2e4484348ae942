import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { verifyWebhookSignature } from '../../src/egress/index.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { hasChromium, launchBrowser } from '../helpers/browser.js';

const OPERATOR = 'operator-console-token-0123456789';
let gw: TestGateway;
let receiver: http.Server;
let hookUrl: string;
const hooks: { headers: http.IncomingHttpHeaders; body: string; url?: string }[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hooks.push({ headers: req.headers, body, url: req.url });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_OPERATOR_TOKEN: OPERATOR, GATEWAY_OPERATOR_WEBHOOK_URL: `${hookUrl}/operator` } });
});
afterAll(async () => {
  await gw.cleanup();
  await new Promise((r) => receiver.close(r));
});

const runDue = () => gw.gateway.registry.services.scheduler.runDue();
const op = { 'x-operator-token': OPERATOR };

describe('handoffs', () => {
  it('parks a task at once and lets an operator complete it through the API; the callback fires', async () => {
    const a = await register(gw.url, 'handoff-owner');
    const secret = (await api(gw.url, 'GET', '/agents/handoff-owner/webhook-secret', { secret: a.secret })).body.secret;
    const r = await api(gw.url, 'POST', '/handoff', { body: { task: 'Call the bank', context: { account: 42 }, callback_url: `${hookUrl}/cb` }, secret: a.secret });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: 'parked' });
    expect(Date.parse(r.body.expires_at) - gw.clock.now()).toBe(24 * 3600 * 1000);
    const parked = await api(gw.url, 'GET', '/operator/handoffs', { headers: op });
    expect(parked.body.handoffs.map((h: { handoff_id: string }) => h.handoff_id)).toContain(r.body.handoff_id);
    expect((await api(gw.url, 'GET', '/operator/handoffs')).status).toBe(401);
    expect((await api(gw.url, 'GET', '/operator/handoffs', { headers: { 'x-operator-token': 'not-the-token-at-all' } })).status).toBe(403);
    const done = await api(gw.url, 'POST', `/operator/handoffs/${r.body.handoff_id}/complete`, { body: { result: { answer: 'done, ref 77' } }, headers: op });
    expect(done.body).toMatchObject({ status: 'completed', result: { answer: 'done, ref 77' } });
    expect((await api(gw.url, 'POST', `/operator/handoffs/${r.body.handoff_id}/reject`, { body: { reason: 'late' }, headers: op })).status).toBe(409);
    const polled = await api(gw.url, 'GET', `/handoffs/${r.body.handoff_id}`);
    expect(polled.body).toMatchObject({ status: 'completed', result: { answer: 'done, ref 77' } });
    await runDue();
    const cb = await eventually(async () => {
      const h = hooks.find((x) => x.url === '/cb' && JSON.parse(x.body).handoff_id === r.body.handoff_id);
      expect(h).toBeDefined();
      return h!;
    });
    expect(JSON.parse(cb.body)).toMatchObject({ event: 'handoff.completed', result: { answer: 'done, ref 77' } });
    expect(verifyWebhookSignature(secret, String(cb.headers['x-gateway-timestamp']), cb.body, String(cb.headers['x-gateway-signature']), 1e9)).toBe(true);
    // The operator was told of the new handoff, signed with the key derived from the operator token (never the token).
    const told = hooks.find((x) => x.url === '/operator' && JSON.parse(x.body).handoff_id === r.body.handoff_id)!;
    const derived = createHmac('sha256', OPERATOR).update('operator-webhook').digest('hex');
    expect(verifyWebhookSignature(derived, String(told.headers['x-gateway-timestamp']), told.body, String(told.headers['x-gateway-signature']), 1e9)).toBe(true);
    expect(verifyWebhookSignature(OPERATOR, String(told.headers['x-gateway-timestamp']), told.body, String(told.headers['x-gateway-signature']), 1e9)).toBe(false);
  });

  it('expires when no one resolves it, and the callback fires on expiry too', async () => {
    const r = await api(gw.url, 'POST', '/handoff', { body: { task: 'Sign the form', callback_url: `${hookUrl}/cb`, ttl_seconds: 120 } });
    gw.clock.advance(121_000);
    await runDue();
    await runDue();
    expect((await api(gw.url, 'GET', `/handoffs/${r.body.handoff_id}`)).body.status).toBe('expired');
    await eventually(async () => {
      const h = hooks.find((x) => x.url === '/cb' && JSON.parse(x.body).handoff_id === r.body.handoff_id);
      expect(JSON.parse(h!.body).event).toBe('handoff.expired');
      expect(verifyWebhookSignature(r.body.callback_secret, String(h!.headers['x-gateway-timestamp']), h!.body, String(h!.headers['x-gateway-signature']), 1e9)).toBe(true);
    });
    expect((await api(gw.url, 'POST', `/operator/handoffs/${r.body.handoff_id}/complete`, { body: { result: 'x' }, headers: op })).status).toBe(409);
  });

  it('rejects with a reason', async () => {
    const r = await api(gw.url, 'POST', '/handoff', { body: { task: 'Impossible task' } });
    const rej = await api(gw.url, 'POST', `/operator/handoffs/${r.body.handoff_id}/reject`, { body: { reason: 'not possible' }, headers: op });
    expect(rej.body).toMatchObject({ status: 'rejected', reason: 'not possible' });
    expect((await api(gw.url, 'POST', '/handoff', { body: { task: '' } })).status).toBe(422);
    expect((await api(gw.url, 'POST', '/handoff', { body: { task: 'x', ttl_seconds: 10 } })).status).toBe(422);
  });

  it.skipIf(!hasChromium)('a person completes a handoff through the operator page in headless Chromium', async () => {
    const r = await api(gw.url, 'POST', '/handoff', { body: { task: 'Check the <b>invoice</b> total', context: { invoice: 'INV-9' } } });
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${gw.url}/operator`);
      expect(await page.locator('h1').innerText()).toBe('Operator sign-in');
      await page.fill('input[name=token]', 'wrong-token-wrong-token');
      await page.click('button[type=submit]');
      expect(await page.locator('h1').innerText()).toBe('Operator sign-in');
      // The refused sign-in answered 403, which the browser reports as a failed resource: expected.
      errors.length = 0;
      await page.goto(`${gw.url}/operator`);
      await page.fill('input[name=token]', OPERATOR);
      await page.click('button[type=submit]');
      expect(await page.locator('h1').innerText()).toBe('Parked handoffs');
      const card = page.locator(`[data-handoff="${r.body.handoff_id}"]`);
      expect(await card.locator('pre').first().innerText()).toBe('Check the <b>invoice</b> total');
      await card.locator('textarea[name=result]').fill('Total is 120 EUR');
      await card.locator('form[action$="/complete"] button').click();
      expect(await page.locator('h1').innerText()).toBe('Parked handoffs');
      expect(await page.locator(`[data-handoff="${r.body.handoff_id}"]`).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await browser?.close();
    }
    const h = await api(gw.url, 'GET', `/handoffs/${r.body.handoff_id}`);
    expect(h.body).toMatchObject({ status: 'completed', result: 'Total is 120 EUR' });
  });
});
