// robots.txt (RFC 9309) for the gateway's user agent, fetched through egress once per origin and kept an hour.
// A missing file (4xx) allows everything; a server error (5xx) disallows everything, as the RFC asks.
import { createRequire } from 'node:module';
import type { Egress } from '../../src/egress/index.js';
import { isEgressError } from '../../src/egress/index.js';
import { GatewayError } from '../../src/errors.js';
import { ByteLru } from '../../src/byte-lru.js';

type Verdict = { isAllowed(url: string, ua?: string): boolean | undefined };

// The package is CommonJS with a `module.exports = function`, which its ESM-era types do not describe.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, text: string) => Verdict;

const TTL_MS = 60 * 60 * 1000;
const MAX_ROBOTS_BYTES = 500 * 1024; // the RFC's minimum a crawler must parse

interface Entry {
  rules: Verdict | 'allow' | 'disallow';
  at: number;
}

const ALLOW_ALL = 'allow' as const;

/** The product token robots.txt groups are matched on: `AgentGateway` of `AgentGateway/1.6 (+…)`. */
export const robotsToken = (userAgent: string): string => userAgent.split(/[/\s]/)[0] || userAgent;

export class Robots {
  private readonly cache = new ByteLru<Entry>(4 * 1024 * 1024);

  constructor(private readonly egress: Egress, private readonly timeoutMs: number) {}

  /** Throws `forbidden` (reason robots_disallowed) when the site's robots.txt keeps the gateway from `url`. */
  async check(url: URL, now: number, signal?: AbortSignal): Promise<void> {
    const robotsUrl = `${url.protocol}//${url.host}/robots.txt`;
    let entry = this.cache.get(robotsUrl);
    if (!entry || now - entry.at > TTL_MS) {
      const loaded = await this.load(robotsUrl, signal);
      entry = { rules: loaded.rules, at: now };
      this.cache.set(robotsUrl, entry, loaded.bytes);
    }
    const token = robotsToken(this.egress.userAgent);
    const allowed = entry.rules === ALLOW_ALL ? true : entry.rules === 'disallow' ? false : entry.rules.isAllowed(url.href, token) !== false;
    if (!allowed) {
      throw new GatewayError('forbidden', `${url.host}'s robots.txt does not allow ${token} to fetch ${url.pathname}.`, { extra: { reason: 'robots_disallowed' } });
    }
  }

  /** The rules and the bytes they are counted as in the cache (the parsed rules hold about twice the text). */
  private async load(robotsUrl: string, signal?: AbortSignal): Promise<{ rules: Entry['rules']; bytes: number }> {
    const flat = (rules: 'allow' | 'disallow') => ({ rules, bytes: 64 + robotsUrl.length });
    try {
      const res = await this.egress.fetch(robotsUrl, { maxBytes: MAX_ROBOTS_BYTES, totalTimeoutMs: this.timeoutMs, signal });
      if (res.status >= 500) return flat('disallow');
      if (res.status < 200 || res.status >= 300) return flat(ALLOW_ALL); // 4xx, or a 3xx without a Location: unavailable
      const text = res.body.toString('utf8');
      // Parsed against the asked URL even after a redirect: the rules are this origin's (RFC 9309 § 2.3.1.2).
      return { rules: robotsParser(robotsUrl, text), bytes: 1024 + 2 * text.length };
    } catch (err) {
      // Oversized, or more than 5 redirects (the RFC's "unavailable"): the site's problem, not a reason to refuse.
      if (isEgressError(err) && (err.code === 'too_large' || err.code === 'too_many_redirects')) return flat(ALLOW_ALL);
      throw err;
    }
  }
}
