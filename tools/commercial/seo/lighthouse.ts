// Lighthouse for the deep audit: not run in this build (docs/decisions/commercial-seo.md); the result says so.
import type { Egress } from '../../../src/egress/index.js';
import type { CheckResult } from './checks.js';

export const LIGHTHOUSE_FIXES: Record<string, string> = {};

export type LighthouseRun = { ran: true; checks: CheckResult[]; report: Record<string, unknown> } | { ran: false; why: string };

export async function runLighthouse(_egress: Egress, _url: string, _signal?: AbortSignal): Promise<LighthouseRun> {
  return { ran: false, why: 'Lighthouse is not part of this build of the gateway.' };
}
