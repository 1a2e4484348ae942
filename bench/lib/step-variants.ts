// Copies of the built gateway (dist/) that answer GET /agents/bench-agent early, each at one step of the REST
// pipeline, with the same bytes the real route sends. Run side by side, the differences between them are what
// each step costs a request in a running server, which a profile cannot say: the sampling profiler distorts a
// 100 µs request by a third, and inlining folds callees into their callers (docs/decisions/request-budget.md).
// The copies patch the compiled JavaScript at fixed anchors; an anchor that moved fails loudly here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './processes.js';

/** The profile the route sends for `bench-agent` (its fields as the gateway writes them, its length alike). */
const PROFILE = {
  handle: 'bench-agent',
  bio: '',
  xp: 0,
  member_since: '2026-11-26T16:53:44.922Z',
  last_seen_at: null,
  links: {
    profile: 'http://127.0.0.1:36739/agents/bench-agent',
    identity_card: 'http://127.0.0.1:36739/identity/bench-agent',
    invite: 'http://127.0.0.1:36739/invite/bench-agent',
  },
};
const TEXT = JSON.stringify(JSON.stringify(PROFILE));
const ANSWER = `res.setHeader('Content-Type', 'application/json; charset=utf-8'); res.end(${TEXT}); return;`;
const HANDLER = "handler: async (input, ctx) =>";

interface Patch {
  file: string;
  anchor: string;
  /** Code put before the anchor (or instead of it when `replace`). */
  code: string;
  replace?: boolean;
}

/** Each step, cumulative: a variant runs everything before its answer. */
export const STEPS: { name: string; what: string; patch: Patch | null }[] = [
  { name: 'at once', what: 'node:http in the gateway process, answered first thing', patch: { file: 'src/http/server.js', anchor: 'r.started = performance.now();', code: `if (req.url === '/agents/bench-agent') { ${ANSWER} }\n` } },
  { name: 'routed', what: 'request id, access-line fields, secret-in-URL check, routing', patch: { file: 'src/http/server.js', anchor: 'const serve = () =>', code: `if (path === '/agents/bench-agent') { ${ANSWER} }\n` } },
  { name: 'adapted', what: 'REST adapter: query, coercion, the tool input', patch: { file: 'src/http/mount.js', anchor: 'const out = await registry.call(', code: `if (name === 'agent_get') { ${ANSWER} }\n` } },
  { name: 'sent', what: 'sendJson of the profile object', patch: { file: 'src/http/mount.js', anchor: 'const out = await registry.call(', code: `if (name === 'agent_get') { sendJson(res, status, JSON.parse(${TEXT}), {}); return; }\n` } },
  { name: 'called', what: 'registry.call around a handler that returns the profile', patch: { file: 'tools/identity/index.js', anchor: `${HANDLER} publicProfile(await mustFind(ctx, input.handle), ctx.config)`, code: `${HANDLER} JSON.parse(${TEXT})`, replace: true } },
  { name: 'full', what: 'the real handler: the SQLite read by handle and the profile', patch: null },
];

/** Builds the variants under a temporary root (its own dist beside links to src and node_modules); returns each dist. */
export function buildVariants(): { root: string; dists: string[] } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-steps-'));
  const dists = STEPS.map((step, i) => {
    if (!step.patch) return path.join(ROOT, 'dist');
    const home = path.join(root, String(i));
    fs.mkdirSync(home);
    fs.cpSync(path.join(ROOT, 'dist'), path.join(home, 'dist'), { recursive: true });
    // The gateway finds its migrations and packages from the folder above dist.
    for (const link of ['src', 'node_modules', 'package.json']) fs.symlinkSync(path.join(ROOT, link), path.join(home, link));
    const file = path.join(home, 'dist', step.patch.file);
    const text = fs.readFileSync(file, 'utf8');
    const at = text.indexOf(step.patch.anchor);
    if (at === -1 || text.indexOf(step.patch.anchor, at + 1) !== -1) throw new Error(`step "${step.name}": the anchor is not once in ${step.patch.file}; update bench/lib/step-variants.ts`);
    const rest = step.patch.replace ? text.slice(at + step.patch.anchor.length) : text.slice(at);
    fs.writeFileSync(file, text.slice(0, at) + step.patch.code + rest);
    return path.join(home, 'dist');
  });
  return { root, dists };
}
