// Which IP addresses the gateway may connect to (docs/architecture.md, "Egress"). Everything that is not plainly public is
// refused: loopback, private, link-local, CGNAT, multicast, reserved, documentation, benchmarking, cloud
// metadata, and IPv6 forms that embed one of those (v4-mapped, v4-compatible, NAT64, 6to4). An operator
// allow-list of CIDR ranges (GATEWAY_EGRESS_ALLOW) re-permits addresses inside those ranges.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IP = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [IP, number];

export type AddressVerdict =
  | { allowed: true; address: string; family: 4 | 6; viaAllowList: boolean }
  | { allowed: false; address: string; reason: string };

/** How an IPv6 range that embeds an IPv4 address is treated. */
type Embedded = 'check' | 'check-then-refuse';

interface RangeRule {
  cidr: Cidr;
  label: string;
  /** For v6 ranges that carry a v4 address: where it sits (bit offset) and how to treat it. */
  embeds?: { bitOffset: number; mode: Embedded };
}

const cidr = (s: string): Cidr => ipaddr.parseCIDR(s);

/**
 * Cloud metadata endpoints. They sit inside refused ranges anyway; they are listed so the message says what
 * they are, and because the allow-list only re-permits them when an entry names them exactly (/32, /128).
 */
const METADATA: { cidr: Cidr; label: string }[] = [
  { cidr: cidr('169.254.169.254/32'), label: 'cloud metadata endpoint' },
  { cidr: cidr('169.254.170.2/32'), label: 'cloud metadata endpoint (ECS task credentials)' },
  { cidr: cidr('100.100.100.200/32'), label: 'cloud metadata endpoint (Alibaba Cloud)' },
  { cidr: cidr('fd00:ec2::254/128'), label: 'cloud metadata endpoint (AWS IPv6)' },
];

/** IPv4 ranges that are refused, most specific first (the first match names the reason). */
const V4_RULES: RangeRule[] = [
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/8', 'unspecified ("this network", 0.0.0.0/8)'],
  ['10.0.0.0/8', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private (RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.88.99.0/24', '6to4 relay anycast (deprecated)'],
  ['192.168.0.0/16', 'private (RFC 1918)'],
  ['198.18.0.0/15', 'benchmarking (RFC 2544)'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved (240.0.0.0/4)'],
].map(([c, label]) => ({ cidr: cidr(c), label }));

/** IPv6 ranges that are refused or inspected, most specific first. */
const V6_RULES: RangeRule[] = [
  { cidr: cidr('::/128'), label: 'unspecified' },
  { cidr: cidr('::1/128'), label: 'loopback' },
  // ipaddr.process() already turns ::ffff:a.b.c.d into a.b.c.d; kept in case a caller skips it.
  { cidr: cidr('::ffff:0:0/96'), label: 'IPv4-mapped IPv6', embeds: { bitOffset: 96, mode: 'check' } },
  { cidr: cidr('::/96'), label: 'IPv4-compatible IPv6 (deprecated)', embeds: { bitOffset: 96, mode: 'check-then-refuse' } },
  { cidr: cidr('::ffff:0:0:0/96'), label: 'IPv4-translated IPv6 (RFC 6145)', embeds: { bitOffset: 96, mode: 'check-then-refuse' } },
  { cidr: cidr('64:ff9b::/96'), label: 'NAT64 (64:ff9b::/96)', embeds: { bitOffset: 96, mode: 'check' } },
  { cidr: cidr('64:ff9b:1::/48'), label: 'local-use NAT64 (64:ff9b:1::/48)' },
  { cidr: cidr('100::/64'), label: 'discard-only (100::/64)' },
  { cidr: cidr('2001::/32'), label: 'Teredo (2001::/32)' },
  { cidr: cidr('2001:2::/48'), label: 'benchmarking (2001:2::/48)' },
  { cidr: cidr('2001:10::/28'), label: 'ORCHID (deprecated)' },
  { cidr: cidr('2001:20::/28'), label: 'ORCHIDv2' },
  { cidr: cidr('2001::/23'), label: 'IETF protocol assignments (2001::/23)' },
  { cidr: cidr('2001:db8::/32'), label: 'documentation (2001:db8::/32)' },
  { cidr: cidr('2002::/16'), label: '6to4 (2002::/16)', embeds: { bitOffset: 16, mode: 'check' } },
  { cidr: cidr('3fff::/20'), label: 'documentation (3fff::/20)' },
  { cidr: cidr('fc00::/7'), label: 'unique-local (fc00::/7)' },
  { cidr: cidr('fe80::/10'), label: 'link-local' },
  { cidr: cidr('fec0::/10'), label: 'site-local (deprecated)' },
  { cidr: cidr('ff00::/8'), label: 'multicast' },
];

/** Global unicast: every IPv6 address outside it is refused even when no rule above names it. */
const V6_GLOBAL_UNICAST = cidr('2000::/3');

function embeddedV4(addr: ipaddr.IPv6, bitOffset: number): ipaddr.IPv4 {
  const bytes = addr.toByteArray();
  const start = bitOffset / 8;
  return new ipaddr.IPv4(bytes.slice(start, start + 4));
}

const sameKind = (a: IP, b: IP): boolean => a.kind() === b.kind();
const inCidr = (addr: IP, [net, bits]: Cidr): boolean => sameKind(addr, net) && addr.match(net, bits);

/** Parses one allow-list entry; a bare address means a single host (/32 or /128). Throws on anything else. */
function parseAllowEntry(raw: string): Cidr {
  const entry = raw.trim();
  const hint = 'expected a CIDR range such as 127.0.0.1/32, 10.0.0.0/8 or ::1/128';
  const [ip, bits, ...rest] = entry.split('/');
  const bitsOk = bits === undefined || /^\d{1,3}$/.test(bits);
  if (!entry || rest.length > 0 || !bitsOk) throw new Error(`Egress allow-list entry "${raw}" is not valid: ${hint}.`);
  let parsed: Cidr;
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) {
    const prefix = bits === undefined ? 32 : Number(bits);
    if (prefix > 32) throw new Error(`Egress allow-list entry "${raw}" has a prefix longer than /32.`);
    parsed = [ipaddr.IPv4.parse(ip), prefix];
  } else if (!ip.includes('%') && parseV6(ip)) {
    const prefix = bits === undefined ? 128 : Number(bits);
    if (prefix > 128) throw new Error(`Egress allow-list entry "${raw}" has a prefix longer than /128.`);
    parsed = [parseV6(ip) as ipaddr.IPv6, prefix];
  } else {
    throw new Error(`Egress allow-list entry "${raw}" is not valid: ${hint}.`);
  }
  // ::ffff:a.b.c.d/96+ is the same thing as a.b.c.d/(n-96): addresses are compared after ipaddr.process().
  const [net, prefix] = parsed;
  if (net.kind() === 'ipv6' && (net as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return [(net as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  }
  return parsed;
}

/**
 * Validates allow-list strings (for config): returns them normalised as `address/prefix`, or throws an Error
 * naming the first bad entry.
 */
export function validateAllowList(entries: readonly string[]): string[] {
  return entries.map((e) => {
    const [net, bits] = parseAllowEntry(e);
    return `${net.toString()}/${bits}`;
  });
}

/**
 * Parses IPv6 text strictly (Node's own parser decides validity). ipaddr.js reads "::a.b.c.d" as the
 * v4-mapped "::ffff:a.b.c.d"; it is really the deprecated v4-compatible form, so it is built by hand here.
 */
function parseV6(text: string): ipaddr.IPv6 | undefined {
  if (isIP(text) !== 6) return undefined;
  const compat = /^::(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (compat) {
    const [a, b, c, d] = compat.slice(1).map(Number);
    return new ipaddr.IPv6([0, 0, 0, 0, 0, 0, (a << 8) | b, (c << 8) | d]);
  }
  return ipaddr.IPv6.parse(text);
}

/**
 * Parses a textual address into its canonical form (v4-mapped IPv6 becomes IPv4), or undefined. Only strict
 * dotted-decimal IPv4 counts: ipaddr.js alone would also read 0x7f.1 or 0177.0.0.1.
 */
export function parseAddress(text: string): IP | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIP(bare) === 4 && ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  const v6 = parseV6(bare);
  if (!v6) return undefined;
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

export class AddressPolicy {
  private readonly allow: Cidr[];

  constructor(allow: readonly string[] = []) {
    this.allow = allow.map(parseAllowEntry);
  }

  /** The allow-list, normalised. */
  get allowList(): string[] {
    return this.allow.map(([net, bits]) => `${net.toString()}/${bits}`);
  }

  /** Decides whether one resolved (or literal) address may be connected to. */
  check(address: string): AddressVerdict {
    const parsed = parseAddress(address);
    if (!parsed) return { allowed: false, address, reason: 'not an IP address' };
    return this.checkParsed(parsed, address);
  }

  private checkParsed(ip: IP, original: string): AddressVerdict {
    const address = ip.toString();
    const family = ip.kind() === 'ipv4' ? 4 : 6;
    const refuse = (reason: string): AddressVerdict => ({ allowed: false, address: original, reason });

    const metadata = METADATA.find((m) => inCidr(ip, m.cidr));
    if (metadata) {
      // Only an entry naming the endpoint exactly re-permits it; 169.254.0.0/16 or 0.0.0.0/0 do not.
      const exact = this.allow.some(([net, bits]) => sameKind(net, ip) && bits === (family === 4 ? 32 : 128) && ip.match(net, bits));
      return exact ? { allowed: true, address, family, viaAllowList: true } : refuse(metadata.label);
    }

    if (this.allow.some((c) => inCidr(ip, c))) return { allowed: true, address, family, viaAllowList: true };

    if (ip.kind() === 'ipv4') {
      const rule = V4_RULES.find((r) => inCidr(ip, r.cidr));
      return rule ? refuse(rule.label) : { allowed: true, address, family, viaAllowList: false };
    }

    const v6 = ip as ipaddr.IPv6;
    const rule = V6_RULES.find((r) => inCidr(v6, r.cidr));
    if (rule?.embeds) {
      const inner = embeddedV4(v6, rule.embeds.bitOffset);
      const verdict = this.checkParsed(inner, inner.toString());
      if (!verdict.allowed) return refuse(`${rule.label} form of ${inner.toString()}, ${verdict.reason}`);
      if (rule.embeds.mode === 'check-then-refuse') return refuse(rule.label);
      return { allowed: true, address, family, viaAllowList: verdict.viaAllowList };
    }
    if (rule) return refuse(rule.label);
    if (!inCidr(v6, V6_GLOBAL_UNICAST)) return refuse('not global unicast (outside 2000::/3)');
    return { allowed: true, address, family, viaAllowList: false };
  }
}
