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

describe('GET /', () => {
  it('gives API clients a JSON index of where to start, every link under the base URL', async () => {
    const r = await api(gw.url, 'GET', '/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.body).toMatchObject({
      name: 'Agent Gateway',
      start: { connect: `${gw.url}/connect`, agent_economics: `${gw.url}/agent-economics` },
      api: { openapi: `${gw.url}/openapi.json` },
      mcp: { streamable_http: `${gw.url}/mcp`, oauth: `${gw.url}/mcp/agent`, legacy_sse: `${gw.url}/mcp/sse` },
      a2a: { agent_card: `${gw.url}/.well-known/agent-card.json` },
    });
    // No operator token here: no console to point at.
    expect(r.body.operator_console).toBeUndefined();
    // Each link the index gives answers (GET ones; the MCP endpoints answer their own protocol).
    for (const url of [r.body.start.connect, r.body.start.agent_economics, r.body.api.openapi, r.body.api.tools, r.body.api.health, r.body.api.ready, r.body.a2a.agent_card]) {
      expect((await fetch(url)).status, url).toBe(200);
    }
  });

  it.skipIf(!hasChromium)('gives browsers a page that links to onboarding, the API, MCP (OAuth too) and the console', async () => {
    let browser: Browser | undefined;
    const withConsole = await startGateway({ env: { GATEWAY_OPERATOR_TOKEN: 'operator-token-for-home-page' } });
    try {
      expect((await api(withConsole.url, 'GET', '/')).body.operator_console).toBe(`${withConsole.url}/operator`);
      expect((await fetch(`${withConsole.url}/operator`)).status).toBe(200);
      browser = await launchBrowser();
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      const res = await page.goto(`${withConsole.url}/`);
      expect(res?.status()).toBe(200);
      expect(await page.locator('h1').innerText()).toBe('Agent Gateway');
      const hrefs = await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      for (const p of ['/connect', '/agent-economics', '/openapi.json', '/mcp', '/mcp/agent', '/mcp/sse', '/operator', '/.well-known/agent-card.json']) {
        expect(hrefs).toContain(`${withConsole.url}${p}`);
      }
      await page.locator('a', { hasText: 'Connect' }).first().click();
      expect(await page.locator('h1').innerText()).toBe('Connect to Agent Gateway');
      expect(await page.locator('script').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await browser?.close();
      await withConsole.cleanup();
    }
  });
});
