import { describe, expect, it } from 'vitest';
import { AddressPolicy, validateAllowList } from '../../src/egress/index.js';
import { parseTarget } from '../../src/egress/resolve.js';

const policy = new AddressPolicy();

describe('address policy: range table', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8', // v4-mapped public address
    '64:ff9b::808:808', // NAT64 of 8.8.8.8
    '2002:808:808::1', // 6to4 of 8.8.8.8
    '172.32.0.1', // just outside 172.16/12
    '100.128.0.1', // just outside 100.64/10
    '198.20.0.1', // just outside 198.18/15
  ])('allows %s', (addr) => {
    expect(policy.check(addr)).toMatchObject({ allowed: true });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['2001:2::1', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::127.0.0.1', 'loopback'], // IPv4-compatible (deprecated) form
    ['::7f00:1', 'loopback'],
    ['::8.8.8.8', 'IPv4-compatible'], // refused even for a public v4: not routable
    ['64:ff9b::7f00:1', 'NAT64'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:c0a8:101::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['fec0::1', 'site-local'],
    ['100::1', 'discard-only'],
    ['4000::1', 'not global unicast'],
  ])('refuses %s (%s)', (addr, reason) => {
    const verdict = policy.check(addr);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain(reason);
  });

  it('refuses things that are not addresses', () => {
    expect(policy.check('localhost')).toMatchObject({ allowed: false });
    expect(policy.check('0x7f.0.0.1')).toMatchObject({ allowed: false });
    expect(policy.check('2130706433')).toMatchObject({ allowed: false });
  });
});

describe('address policy: allow-list', () => {
  it('re-permits addresses inside an allowed range, and only those', () => {
    const p = new AddressPolicy(['127.0.0.1/32', '10.0.0.0/8', '::1']);
    expect(p.check('127.0.0.1')).toMatchObject({ allowed: true, viaAllowList: true });
    expect(p.check('::ffff:127.0.0.1')).toMatchObject({ allowed: true, address: '127.0.0.1', family: 4 });
    expect(p.check('127.0.0.2')).toMatchObject({ allowed: false });
    expect(p.check('10.1.2.3')).toMatchObject({ allowed: true });
    expect(p.check('64:ff9b::a00:1')).toMatchObject({ allowed: true }); // NAT64 of an allowed v4
    expect(p.check('::1')).toMatchObject({ allowed: true });
    expect(p.check('192.168.0.1')).toMatchObject({ allowed: false });
  });

  it('re-permits a metadata endpoint only when an entry names it exactly', () => {
    expect(new AddressPolicy(['169.254.0.0/16']).check('169.254.169.254')).toMatchObject({ allowed: false });
    expect(new AddressPolicy(['0.0.0.0/0']).check('169.254.169.254')).toMatchObject({ allowed: false });
    expect(new AddressPolicy(['100.64.0.0/10']).check('100.100.100.200')).toMatchObject({ allowed: false });
    expect(new AddressPolicy(['169.254.169.254/32']).check('169.254.169.254')).toMatchObject({ allowed: true });
    expect(new AddressPolicy(['169.254.0.0/16']).check('169.254.1.1')).toMatchObject({ allowed: true });
  });

  it('validates and normalises entries', () => {
    expect(validateAllowList(['127.0.0.1/32', ' 10.0.0.0/8 ', '::1', '::ffff:127.0.0.1/128', '192.168.1.5'])).toEqual([
      '127.0.0.1/32',
      '10.0.0.0/8',
      '::1/128',
      '127.0.0.1/32',
      '192.168.1.5/32',
    ]);
    expect(validateAllowList([])).toEqual([]);
  });

  it.each(['', 'localhost', '10.0.0.0/33', '::1/129', '127.1/32', '0x7f000001/32', '10.0.0.0/8/8', '10.0.0.0/x', 'fe80::1%eth0/128'])(
    'rejects the bad entry %j with a clear error',
    (entry) => {
      expect(() => validateAllowList([entry])).toThrow(/allow-list entry/);
      expect(() => new AddressPolicy([entry])).toThrow(/allow-list entry/);
    },
  );
});

describe('URL targets', () => {
  it.each(['http://2130706433/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/', 'http://127.1/', 'http://0x7f000001/', 'http://017700000001/'])(
    'the WHATWG parser normalises %s to the literal 127.0.0.1',
    (u) => {
      expect(parseTarget(u)).toMatchObject({ host: '127.0.0.1', literal: '127.0.0.1' });
    },
  );

  it('strips IPv6 brackets and keeps the literal', () => {
    expect(parseTarget('http://[::ffff:127.0.0.1]/')).toMatchObject({ host: '::ffff:7f00:1', literal: '::ffff:7f00:1' });
  });

  it('refuses other schemes, credentials in the URL, and junk', () => {
    for (const u of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://x/', 'data:text/plain,hi', 'javascript:alert(1)']) {
      expect(() => parseTarget(u)).toThrow(expect.objectContaining({ code: 'scheme' }));
    }
    expect(() => parseTarget('http://user:pw@example.com/')).toThrow(expect.objectContaining({ code: 'bad_url' }));
    expect(() => parseTarget('not a url')).toThrow(expect.objectContaining({ code: 'bad_url' }));
    expect(() => parseTarget('http://1.2.3.4.5/')).toThrow(expect.objectContaining({ code: 'bad_url' }));
  });

  it('never puts URL credentials into the message', () => {
    try {
      parseTarget('http://admin:hunter2@example.com/');
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('hunter2');
    }
  });
});
