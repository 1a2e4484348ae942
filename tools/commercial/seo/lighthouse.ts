// Lighthouse for the deep audit: not run in this build (docs/decisions/commercial-seo.md, "Lighthouse"). The
// result lists it in `skipped` with why, saying whether the machine has a Chromium it could have driven.
import fs from 'node:fs';
import type { Egress } from '../../../src/egress/index.js';
import type { CheckResult } from './checks.js';

export const LIGHTHOUSE_FIXES: Record<string, string> = {};

export type LighthouseRun = { ran: true; checks: CheckResult[]; report: Record<string, unknown> } | { ran: false; why: string };

/** The Chromium Lighthouse would drive: CHROME_PATH, else Debian's. */
export function chromiumPath(): string | null {
  for (const p of [process.env.CHROME_PATH, '/usr/bin/chromium']) {
    if (p && fs.existsSync(p)) return p;
  }
  return null;
}

export async function runLighthouse(_egress: Egress, _url: string, _signal?: AbortSignal): Promise<LighthouseRun> {
  const chromium = chromiumPath();
  return {
    ran: false,
    why:
      'Lighthouse (SEO, performance and accessibility scores) is not part of this build of the gateway: it is not installed, and a browser’s own fetches of a page’s ' +
      `subresources would bypass the gateway’s egress address rules. ${chromium ? `Chromium is present (${chromium})` : 'No Chromium is installed'}; the other parts of the deep audit ran.`,
  };
}
