// DNS-rebinding protection for the MCP transports: the Host header must name this gateway (its public base
// URL, a loopback name on the bound port, or an operator-listed host) and a browser Origin, when present,
// must be one of ours.
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.js';

export class OriginGuard {
  private hosts = new Set<string>();
  private origins = new Set<string>();

  constructor(private readonly config: Config) {
    this.update(config.port);
  }

  /** Recomputes the allowed names once the real port is known (port 0 binds an ephemeral one). */
  update(port: number): void {
    const base = new URL(this.config.baseUrl);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].map((h) => `${h}:${port}`);
    this.hosts = new Set([base.host, ...loopback, ...this.config.allowedHosts].map((h) => h.toLowerCase()));
    this.origins = new Set(
      [base.origin, ...loopback.map((h) => `http://${h}`), ...this.config.allowedOrigins].map((o) => o.toLowerCase()),
    );
  }

  /** An error message when the request must be refused, otherwise null. */
  check(req: IncomingMessage): string | null {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!this.hosts.has(host)) return `Invalid Host header: ${host || '(none)'}`;
    const origin = req.headers.origin;
    if (origin && !this.origins.has(origin.toLowerCase())) return `Invalid Origin header: ${origin}`;
    return null;
  }
}
