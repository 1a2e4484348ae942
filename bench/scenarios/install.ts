// Issue 44, the light install (docs/decisions/light-install.md): `npm pack`, then `npm install <tarball>` into an
// empty folder, as a user installs the package, timed and measured (node_modules on disk as `du` counts it, and the
// packages in it) against the targets of 150 MB and 25 s: once with the user's npm cache, as a second install on a
// machine is, and once with an empty cache, as the first is (everything downloaded). Then the installed bin's first
// start (`serve`, until it logs that it is ready). Needs the npm registry.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { lightInstall, registryReachable, serveInstalled, type LightInstall } from '../../test/install/light-install.js';

const MB = 1024 * 1024;
const TARGET_MB = 150;
const TARGET_S = 25;
const verdict = (ok: boolean) => (ok ? 'meets' : 'misses');

export async function install(): Promise<string> {
  const reach = await registryReachable();
  if (!reach.ok) return `## install (issue 44)\n\nNot measured: the npm registry cannot be reached (${reach.why}).`;
  const rows: string[] = [];
  let first: LightInstall | undefined;
  for (const [label, cache] of [['user’s npm cache', undefined], ['empty npm cache', 'empty']] as const) {
    const i = await lightInstall(cache ? { cache } : {});
    const mb = i.diskBytes / MB;
    rows.push(`| ${label} | ${i.seconds.toFixed(1)} (${verdict(i.seconds <= TARGET_S)} ≤ ${TARGET_S}) | ${mb.toFixed(0)} (${verdict(mb <= TARGET_MB)} ≤ ${TARGET_MB}) | ${i.packages} |`);
    if (first) i.cleanup();
    else first = i;
  }
  try {
    const started = performance.now();
    const served = await serveInstalled(first!, { GATEWAY_DATA_DIR: path.join(first!.dir, 'data') });
    const ready = performance.now() - started;
    await served.stop();
    return [
      '## install (issue 44): the light install',
      '',
      `\`npm pack\`: ${(first!.tarballBytes / 1024).toFixed(0)} KB tarball. \`npm install <tarball> --no-audit --no-fund\` into an empty folder:`,
      '',
      '| npm cache | time s | node_modules MB (du) | packages |',
      '|---|---|---|---|',
      ...rows,
      '',
      `The installed bin's \`serve\`, from spawn to "gateway ready": ${ready.toFixed(0)} ms.`,
    ].join('\n');
  } finally {
    first!.cleanup();
  }
}
