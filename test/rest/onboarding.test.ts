import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, startGateway, type TestGateway } from '../helpers/gateway.js';
import { hasChromium, launchBrowser } from '../helpers/browser.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

describe('GET /connect and /agent-economics', () => {
  it('serve JSON by default, with values from config and the registry', async () => {
    const c = await api(gw.url, 'GET', '/connect');
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toContain('application/json');
    expect(c.body.free_key.monthly_quota).toBe(10000);
    expect(c.body.mcp.streamable_http.url).toBe(`${gw.url}/mcp`);
    expect(c.body.pay_per_call.pay_to).toBe(gw.gateway.infra.wallet.address);
    expect(c.body.prices.find((p: { tool: string }) => p.tool === 'base_convert')).toMatchObject({ usd: '0.001', amount: '1000' });
    const e = await api(gw.url, 'GET', '/agent-economics');
    expect(e.body.free).toContain('memory');
    expect(e.body.credits).toMatch(/never from invites/);
  });

  it('serve HTML when the client prefers it', async () => {
    for (const path of ['/connect', '/agent-economics']) {
      const r = await fetch(`${gw.url}${path}`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(r.headers.get('content-type')).toContain('text/html');
      const html = await r.text();
      expect(html).toMatch(/<h1>/);
      expect(html).not.toMatch(/<script/i);
    }
  });

  it.skipIf(!hasChromium)('render in headless Chromium with a heading and no console errors', async () => {
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      for (const [path, heading] of [
        ['/connect', 'Connect to Agent Gateway'],
        ['/agent-economics', 'Agent economics'],
      ]) {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('pageerror', (e) => errors.push(e.message));
        const res = await page.goto(`${gw.url}${path}`);
        expect(res?.status()).toBe(200);
        expect(await page.locator('h1').innerText()).toBe(heading);
        expect(await page.locator('h2').count()).toBeGreaterThan(3);
        expect(errors).toEqual([]);
        await page.close();
      }
    } finally {
      await browser?.close();
    }
  });
});
