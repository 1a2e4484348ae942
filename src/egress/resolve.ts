// URL targets and name resolution. A URL is parsed with the WHATWG parser (which already turns 2130706433,
// 0x7f.0.0.1, 0177.0.0.1 and 127.1 into 127.0.0.1); literal addresses are checked without DNS, host names
// are resolved once, inside the connection's lookup hook, and the connection goes only to the addresses that
// passed the policy (no DNS rebinding between check and connect).
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { AddressPolicy, parseAddress } from './address-policy.js';
import { EgressError, describeOrigin } from './errors.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses. Injectable so tests can map a fake name to 127.0.0.1. */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: LookupFn = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true });
  return found.map((a) => ({ address: a.address, family: a.family }));
};

export interface Target {
  url: URL;
  /** The host without IPv6 brackets. */
  host: string;
  /** Set when the host is an IP literal (no DNS involved). */
  literal?: string;
}

/** Parses and validates a URL for egress: http(s) only, no credentials, and IP literals in canonical form. */
export function parseTarget(input: string | URL): Target {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new EgressError('bad_url', 'The URL is not valid.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError('scheme', `Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}.`);
  }
  if (url.username || url.password) {
    throw new EgressError('bad_url', 'URLs must not carry credentials (user:password@); send them in a header.');
  }
  url.hash = '';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new EgressError('bad_url', 'The URL has no host.');
  const parsed = parseAddress(host);
  if (parsed) return { url, host, literal: host };
  // The WHATWG parser normalises every numeric IPv4 form to a dotted quad; anything numeric-looking that is
  // left over (it should not happen) is refused rather than handed to a resolver that might read it as octal.
  if (/^[0-9.]+$/.test(host) || /^0x[0-9a-f]*(\.|$)/i.test(host)) {
    throw new EgressError('bad_url', `The host ${host} is not a valid address.`);
  }
  return { url, host };
}

/** Refuses an IP-literal target that the policy does not allow (host names are checked at lookup time). */
export function checkLiteral(target: Target, policy: AddressPolicy): void {
  if (target.literal === undefined) return;
  const verdict = policy.check(target.literal);
  if (!verdict.allowed) {
    throw new EgressError(
      'blocked_address',
      `Refused to connect to ${describeOrigin(target.url)}: ${verdict.address} is not a public address (${verdict.reason}).`,
      { address: verdict.address },
    );
  }
}

/**
 * Resolves a host name once and checks every address. Refuses the host if ANY address is not allowed (a name
 * with one public and one private address is refused). Returns the normalised, allowed addresses.
 */
export async function resolveChecked(hostname: string, policy: AddressPolicy, lookup: LookupFn): Promise<ResolvedAddress[]> {
  const literal = parseAddress(hostname);
  let found: ResolvedAddress[];
  if (literal) {
    found = [{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }];
  } else {
    try {
      found = await lookup(hostname);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException | undefined)?.code;
      throw new EgressError('dns', `Could not resolve ${hostname}${code ? ` (${code})` : ''}.`);
    }
  }
  if (found.length === 0) throw new EgressError('dns', `Could not resolve ${hostname}: no addresses.`);
  const out: ResolvedAddress[] = [];
  for (const { address } of found) {
    const verdict = policy.check(address);
    if (!verdict.allowed) {
      throw new EgressError(
        'blocked_address',
        `Refused to connect to ${hostname}: it resolves to ${verdict.address}, which is not a public address (${verdict.reason}).`,
        { address: verdict.address },
      );
    }
    if (!out.some((a) => a.address === verdict.address)) out.push({ address: verdict.address, family: verdict.family });
  }
  return out;
}

/**
 * A `lookup` for net/tls.connect (passed through undici's `connect` options): resolves once, applies the
 * policy and hands only the checked addresses to the socket. Errors are EgressErrors and surface unchanged
 * from the undici request.
 */
export function pinnedLookup(policy: AddressPolicy, lookup: LookupFn): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(hostname, policy, lookup).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (wanted.length === 0) {
          callback(new EgressError('dns', `Could not resolve ${hostname}: no IPv${options.family} address.`) as NodeJS.ErrnoException, '', 0);
          return;
        }
        if (options.all) callback(null, wanted.map((a) => ({ address: a.address, family: a.family })));
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
}
