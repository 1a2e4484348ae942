// One Lighthouse run, in a process of its own (lighthouse.ts starts it beside the Chromium it launched): Lighthouse
// spends seconds of CPU on the trace, which must not hold the gateway's event loop, and a run that hangs is ended
// by killing this process. It gets the page's URL and the browser's DevTools port, and answers with the summary.
import lighthouse from 'lighthouse';
import { LIGHTHOUSE_CATEGORIES, summariseLhr, type Lhr } from './lighthouse-report.js';

export interface LighthouseJob {
  url: string;
  port: number;
  maxWaitForLoadMs: number;
}

process.once('message', (job: LighthouseJob) => {
  lighthouse(job.url, { port: job.port, logLevel: 'silent', onlyCategories: [...LIGHTHOUSE_CATEGORIES], maxWaitForLoad: job.maxWaitForLoadMs })
    .then((result) => {
      const lhr = result?.lhr as Lhr | undefined;
      if (!lhr) return { ok: false, error: 'Lighthouse returned no report.' };
      if (lhr.runtimeError) return { ok: false, error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` };
      return { ok: true, report: summariseLhr(lhr) };
    })
    .catch((err: unknown) => ({ ok: false, error: (err as Error).message ?? String(err) }))
    .then((reply) => process.send!(reply, () => process.exit(0)));
});
process.send!('ready');
