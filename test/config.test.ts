import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8787);
    expect(c.host).toBe('127.0.0.1');
    expect(c.baseUrl).toBe('http://127.0.0.1:8787');
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.logLevel).toBe('info');
    expect(c.egressAllow).toEqual([]);
    expect(c.mcpToolsets).toEqual([]);
  });

  it('parses lists and a public base URL without a trailing slash', () => {
    const c = loadConfig({ GATEWAY_MCP_TOOLSETS: 'memory, wall', GATEWAY_BASE_URL: 'https://gw.example.com/' });
    expect(c.mcpToolsets).toEqual(['memory', 'wall']);
    expect(c.baseUrl).toBe('https://gw.example.com');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['GATEWAY_BASE_URL', 'ftp://x'],
    ['GATEWAY_MAX_BODY_BYTES', '-1'],
  ])('refuses %s=%s with a message naming the variable', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [key]: value })).toThrow(new RegExp(`${key}="${value}"`));
  });

  it.each([
    ['X402_PRIVATE_KEY', `0x${'ab'.repeat(32)}\n`],
    ['GATEWAY_OPERATOR_TOKEN', 'hunter2-short'],
    ['STRIPE_SECRET_KEY', 'pk_live_hunter2hunter2'],
    ['GATEWAY_DATABASE_URL', 'mysql://gw:hunter2@db.internal/gw'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'api-key hunter2hunter2'],
  ])('refuses %s without printing its value, which is a credential', (key, value) => {
    let message = '';
    try {
      loadConfig({ [key]: value });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(`${key}=(hidden, ${value.length} characters)`);
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('abab');
  });
});

describe('GATEWAY_TRUST_PROXY', () => {
  it('is off by default, one proxy for true, or how many proxies stand in front', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ GATEWAY_TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ GATEWAY_TRUST_PROXY: 'yes' }).trustProxy).toBe(1);
    expect(loadConfig({ GATEWAY_TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ GATEWAY_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => loadConfig({ GATEWAY_TRUST_PROXY: 'sometimes' })).toThrow(/GATEWAY_TRUST_PROXY="sometimes"/);
    expect(() => loadConfig({ GATEWAY_TRUST_PROXY: '11' })).toThrow(/GATEWAY_TRUST_PROXY/);
  });
});

describe('egress allow-list', () => {
  it('normalises CIDR ranges and refuses a bad one', () => {
    expect(loadConfig({ GATEWAY_EGRESS_ALLOW: '127.0.0.1/32, 10.0.0.0/8' }).egressAllow).toEqual(['127.0.0.1/32', '10.0.0.0/8']);
    expect(() => loadConfig({ GATEWAY_EGRESS_ALLOW: '127.0.0.1/99' })).toThrow(/GATEWAY_EGRESS_ALLOW/);
  });
});

describe('the deep SEO audit’s Chromium', () => {
  it('is GATEWAY_CHROMIUM_PATH when it exists, none when `off`, and a path that does not exist is refused', () => {
    expect(loadConfig({ GATEWAY_CHROMIUM_PATH: process.execPath }).commercial.lighthouse.chromiumPath).toBe(process.execPath);
    expect(loadConfig({ GATEWAY_CHROMIUM_PATH: 'off' }).commercial.lighthouse.chromiumPath).toBeNull();
    expect(() => loadConfig({ GATEWAY_CHROMIUM_PATH: '/nowhere/chromium' })).toThrow(/GATEWAY_CHROMIUM_PATH="\/nowhere\/chromium": no such file/);
    expect(loadConfig({ CHROME_PATH: '/nowhere/chrome' }).commercial.lighthouse.chromiumPath).toBeNull();
    expect(loadConfig({ GATEWAY_LIGHTHOUSE_TIMEOUT_SECONDS: '90' }).commercial.lighthouse.timeoutMs).toBe(90_000);
    expect(() => loadConfig({ GATEWAY_LIGHTHOUSE_TIMEOUT_SECONDS: '5' })).toThrow(/GATEWAY_LIGHTHOUSE_TIMEOUT_SECONDS/);
  });
});
