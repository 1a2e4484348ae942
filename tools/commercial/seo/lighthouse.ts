// Lighthouse for the deep audit (docs/decisions/commercial-seo.md, "Lighthouse"): Chromium is launched here with
// the gateway's browser proxy (src/egress/browser-proxy.ts) as its only way out, so the page's subresources obey
// the egress address policy like every other fetch; Lighthouse itself runs in lighthouse-process.ts and drives that
// Chromium over its DevTools port. One run at a time per process, each within its time budget; on any failure
// (no Chromium, a timeout, a page Lighthouse cannot load) the audit reports the part skipped and why.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBrowserProxy, type BlockedRequest, type Egress } from '../../../src/egress/index.js';
import { siblingModule } from '../../../src/threads.js';
import type { CheckResult } from './audit-types.js';
import type { LighthouseJob } from './lighthouse-process.js';
import { lighthouseChecks, type LighthouseReport } from './lighthouse-report.js';

export { LIGHTHOUSE_FIXES } from './lighthouse-report.js';

export interface LighthouseSettings {
  /** Debian's Chromium (or GATEWAY_CHROMIUM_PATH); null when there is none or it is turned off. */
  chromiumPath: string | null;
  timeoutMs: number;
  /** Bytes the browser may download in one run. */
  maxBytes: number;
}

export type LighthouseRun =
  | { ran: true; checks: CheckResult[]; report: Omit<LighthouseReport, 'page_origins'> & { blocked_requests: BlockedRequest[]; duration_ms: number } }
  | { ran: false; why: string };

const ENTRY = siblingModule(import.meta.url, 'lighthouse-process');

/** Every request through the proxy (loopback too), and no name resolved, no UDP, by the browser itself. */
const chromeFlags = (proxy: string): string[] => [
  '--headless=new',
  '--disable-gpu',
  `--proxy-server=${proxy}`,
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Chromium's setuid sandbox cannot start as root (containers); elsewhere it stays on.
  ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
];

function forkLighthouse(): ChildProcess {
  const require = createRequire(import.meta.url);
  // From TypeScript sources (tests, tsx) the process loads tsx first, as the render processes do.
  const execArgv = ENTRY.pathname.endsWith('.ts') ? ['--import', pathToFileURL(require.resolve('tsx')).href] : [];
  // Only PATH and HOME: none of the gateway's secrets. Never the parent's stdout: over stdio it is the MCP channel.
  return fork(fileURLToPath(ENTRY), [], { execArgv, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' }, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
}

type Reply = { ok: true; report: LighthouseReport } | { ok: false; error: string };

/** Sends the job once the process is ready; rejects on its early exit, the run's deadline (`budgetMs` from the run's
 * start, `leftMs` from now) or the caller's abort. */
function exchange(child: ChildProcess, job: LighthouseJob, budgetMs: number, leftMs: number, signal?: AbortSignal): Promise<Reply> {
  let timer: NodeJS.Timeout | undefined;
  let abort = () => undefined as void;
  return new Promise<Reply>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`it took longer than its ${Math.round(budgetMs / 1000)} s budget`)), leftMs);
    abort = () => reject(new Error('the audit ran out of time'));
    signal?.addEventListener('abort', abort, { once: true });
    child.on('message', (m: 'ready' | Reply) => (m === 'ready' ? child.send(job) : resolve(m)));
    child.once('error', reject);
    child.once('exit', (code, sig) => reject(new Error(`its process exited (${sig ?? code})`)));
  }).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  });
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs Lighthouse on `url` (already fetched and checked by the audit), one run at a time in this process. */
export function runLighthouse(egress: Egress, url: string, settings: LighthouseSettings, signal?: AbortSignal): Promise<LighthouseRun> {
  if (!settings.chromiumPath) {
    return Promise.resolve({
      ran: false,
      why: 'Lighthouse (SEO, performance and accessibility scores) needs Chromium, and this gateway has none (install Debian’s `chromium`, or set GATEWAY_CHROMIUM_PATH); the other parts of the deep audit ran.',
    });
  }
  const run = queue.then(() => runOnce(egress, url, settings as LighthouseSettings & { chromiumPath: string }, signal));
  queue = run.catch(() => undefined);
  return run;
}

async function runOnce(egress: Egress, url: string, settings: LighthouseSettings & { chromiumPath: string }, signal?: AbortSignal): Promise<LighthouseRun> {
  if (signal?.aborted) return { ran: false, why: 'Lighthouse did not run: the audit ran out of time waiting for the browser.' };
  const started = Date.now();
  const proxy = await startBrowserProxy(egress, { maxBytes: settings.maxBytes });
  let chrome: { port: number; kill(): void } | undefined;
  let child: ChildProcess | undefined;
  try {
    const { launch } = await import('chrome-launcher');
    chrome = await launch({ chromePath: settings.chromiumPath, chromeFlags: chromeFlags(proxy.url), handleSIGINT: false, logLevel: 'silent' });
    child = forkLighthouse();
    const left = settings.timeoutMs - (Date.now() - started);
    const reply = await exchange(child, { url, port: chrome.port, maxWaitForLoadMs: Math.max(5_000, left - 10_000) }, settings.timeoutMs, left, signal);
    if (!reply.ok) return { ran: false, why: `Lighthouse could not audit the page: ${reply.error}` };
    const { page_origins, ...report } = reply.report;
    const blocked = proxy.blocked.filter((b) => page_origins.includes(b.origin));
    return { ran: true, checks: lighthouseChecks(reply.report), report: { ...report, blocked_requests: blocked, duration_ms: Date.now() - started } };
  } catch (err) {
    return { ran: false, why: `Lighthouse did not finish: ${(err as Error).message}; the other parts of the deep audit ran.` };
  } finally {
    child?.kill('SIGKILL');
    chrome?.kill();
    await proxy.close();
  }
}
