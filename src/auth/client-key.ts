// A stable, non-reversible key for a client address (provenance, anonymous limits): HMAC with the
// install's random pepper, so the database never holds raw addresses. An IPv6 client is keyed by its /64, the block
// one subscriber is given (RFC 6177), so that rotating through its own addresses does not make it many clients; an
// IPv4 address written as IPv6 (::ffff:a.b.c.d, as a dual-stack socket reports it) is keyed as the IPv4 address.
import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address (its zone dropped). */
function ipv6Groups(address: string): number[] {
  let a = address.split('%')[0].toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number);
    a = `${a.slice(0, v4.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') : [a, undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** What a client is counted as: an IPv4 address, an IPv6 /64 (`2001:db8:1:2::/64`), or the text as it came. */
export function clientBlock(address: string): string {
  if (!isIPv6(address)) return address;
  const g = ipv6Groups(address);
  // ::ffff:a.b.c.d is an IPv4 client on a dual-stack socket.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.');
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`;
}

export const makeClientKey =
  (pepper: string) =>
  (ip: string): string =>
    createHmac('sha256', pepper).update(clientBlock(ip)).digest('base64url').slice(0, 32);
