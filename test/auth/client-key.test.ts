import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { clientBlock, makeClientKey } from '../../src/auth/client-key.js';
import { clientIp } from '../../src/http/credentials.js';

describe('client key', () => {
  it('counts an IPv6 client by its /64, whatever the spelling', () => {
    expect(clientBlock('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientBlock('2001:0DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(clientBlock('2001:db8:1:2::1%eth0')).toBe('2001:db8:1:2::/64');
    expect(clientBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBlock('::1')).toBe('0:0:0:0::/64');
    expect(clientBlock('2001:db8:1:3::1')).not.toBe(clientBlock('2001:db8:1:2::1'));
  });

  it('counts an IPv4 client as its address, also when a dual-stack socket writes it as IPv6', () => {
    expect(clientBlock('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBlock('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBlock('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientBlock('203.0.113.8')).not.toBe(clientBlock('203.0.113.7'));
  });

  it('keeps text that is not an address as it came (API keys, "unknown")', () => {
    expect(clientBlock('unknown')).toBe('unknown');
    expect(clientBlock('key:abc')).toBe('key:abc');
  });

  it('gives one key to the addresses of one /64 and hides the address', () => {
    const key = makeClientKey('pepper');
    expect(key('2001:db8:1:2::1')).toBe(key('2001:db8:1:2:ffff::9'));
    expect(key('2001:db8:1:2::1')).not.toBe(key('2001:db8:1:5::1'));
    expect(key('::ffff:198.51.100.1')).toBe(key('198.51.100.1'));
    expect(key('198.51.100.1')).not.toContain('198');
    expect(makeClientKey('other')('198.51.100.1')).not.toBe(key('198.51.100.1'));
  });
});

describe('the client address behind a proxy (GATEWAY_TRUST_PROXY)', () => {
  const req = (forwarded: string | undefined) => ({ headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded }, socket: { remoteAddress: '10.0.0.2' } }) as unknown as IncomingMessage;

  it('is the entry the proxy appended (the last), not one the client wrote before it', () => {
    expect(clientIp(req('198.51.100.7'), 1)).toBe('198.51.100.7');
    expect(clientIp(req('1.2.3.4, 198.51.100.7'), 1)).toBe('198.51.100.7');
    expect(clientIp(req('1.2.3.4,198.51.100.7 '), 1)).toBe('198.51.100.7');
  });

  it('behind several proxies, is the entry the outermost one appended', () => {
    // A CDN in front of nginx: the client wrote 1.2.3.4, the CDN appended the client, nginx appended the CDN's edge.
    expect(clientIp(req('1.2.3.4, 198.51.100.7, 203.0.113.9'), 2)).toBe('198.51.100.7');
    expect(clientIp(req('198.51.100.7, 203.0.113.9'), 2)).toBe('198.51.100.7');
    // Straight to nginx, past the CDN: nginx's own entry is the client.
    expect(clientIp(req('198.51.100.8'), 2)).toBe('198.51.100.8');
  });

  it('is the socket address without a proxy, or without the header', () => {
    expect(clientIp(req('1.2.3.4'), 0)).toBe('10.0.0.2');
    expect(clientIp(req(undefined), 1)).toBe('10.0.0.2');
    expect(clientIp(req(' '), 1)).toBe('10.0.0.2');
  });
});
