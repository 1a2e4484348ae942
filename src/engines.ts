// Optional engines (docs/decisions/light-install.md): packages that only some services need are optional peer
// dependencies, which a plain `npm install agent-gateway` leaves out. A service checks its engine here, in the main
// thread, before it holds any payment or starts a thread or process, and without it answers 503
// engine_not_installed naming the packages and the one command that installs them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewayError } from './errors.js';
import { projectRoot } from './paths.js';

export interface Engine {
  /** What uses the engine, as the error names it. */
  needs: string;
  packages: readonly string[];
}

/**
 * Two of the review's ESLint plugins declare a peer range of ESLint older than the ESLint the review runs (they are
 * loaded rule by rule, so the range does not matter here; the checkout's package.json overrides it). npm installs
 * them beside it only with --force, and once they are in a folder, every later install there needs it too.
 */
const OLD_PEER_RANGES = ['eslint-plugin-react', '@microsoft/eslint-plugin-sdl'];

const REVIEW = [
  'eslint', 'eslint-plugin-security', 'eslint-plugin-no-unsanitized', 'eslint-plugin-react', '@microsoft/eslint-plugin-sdl', 'amaro',
  '@ast-grep/napi', '@ast-grep/lang-bash', '@ast-grep/lang-go', '@ast-grep/lang-java', '@ast-grep/lang-php', '@ast-grep/lang-python', '@ast-grep/lang-ruby',
  '@vscode/tree-sitter-wasm', '@secretlint/core', '@secretlint/secretlint-rule-preset-recommend',
] as const;

/** Not @opentelemetry/api: small, and installed anyway (prom-client depends on it). */
const TRACING = [
  '@opentelemetry/context-async-hooks', '@opentelemetry/core', '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources', '@opentelemetry/sdk-trace', '@opentelemetry/semantic-conventions',
] as const;

/** Which service needs which optional packages: the README's table, and package.json's peerDependencies. */
export const ENGINES = {
  seo: { needs: 'SEO audits (seo_audit)', packages: ['lighthouse', 'chrome-launcher'] },
  review: { needs: 'Code review (code_review, code_review_metered)', packages: REVIEW },
  image: { needs: 'Rendering a chart or SVG (gen_image with a spec)', packages: ['vega', 'vega-lite', '@resvg/resvg-js', 'dejavu-fonts-ttf'] },
  charts: { needs: 'The operator console’s charts', packages: ['vega', 'vega-lite'] },
  card: { needs: 'Card payments (Stripe)', packages: ['stripe'] },
  x402: { needs: 'x402 payments (verifying and settling them)', packages: ['viem', '@x402/core', '@x402/evm'] },
  tracing: { needs: 'Tracing export (OTEL_EXPORTER_OTLP_ENDPOINT)', packages: TRACING },
  pdf: { needs: 'Reading PDFs (browse, extraction)', packages: ['unpdf'] },
  holidays: { needs: 'A country’s public holidays (business_days with country)', packages: ['date-holidays'] },
} as const satisfies Record<string, Engine>;

export type EngineName = keyof typeof ENGINES;

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Packages found once stay found; a missing one is looked up again on the next call, so installing it needs no restart. */
const found = new Set<string>();

/**
 * Whether `pkg` is installed where this module's imports look: each node_modules from here up, as Node resolves
 * a bare specifier for `import` (no NODE_PATH, no global folders). Reads no file of it and loads nothing.
 */
function installed(pkg: string): boolean {
  if (found.has(pkg)) return true;
  for (let dir = HERE; ; ) {
    if (path.basename(dir) !== 'node_modules' && fs.existsSync(path.join(dir, 'node_modules', pkg, 'package.json'))) {
      found.add(pkg);
      return true;
    }
    const up = path.dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}

/** Which of `packages` are not installed. */
export const missingPackages = (packages: readonly string[]): string[] => packages.filter((p) => !installed(p));

/** The engine's packages that are not installed (none when it is complete). */
export const missingEngine = (name: EngineName): string[] => missingPackages(ENGINES[name].packages);

let ranges: Record<string, string> | undefined;
/**
 * The version range package.json gives a package (its optional peers; devDependencies for the two left out of
 * them), so the command installs versions this gateway works with.
 */
function rangeOf(pkg: string): string | undefined {
  if (!ranges) {
    const file = path.join(projectRoot(fileURLToPath(import.meta.url)), 'package.json');
    const j = JSON.parse(fs.readFileSync(file, 'utf8')) as { peerDependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    ranges = { ...j.devDependencies, ...j.peerDependencies };
  }
  return ranges[pkg];
}

/** The one command that installs the engine, run where agent-gateway is installed. */
export function installCommand(name: EngineName): string {
  const packages: readonly string[] = ENGINES[name].packages;
  const force = packages.some((p) => OLD_PEER_RANGES.includes(p)) || OLD_PEER_RANGES.some(installed);
  return ['npm install', ...(force ? ['--force'] : []), ...packages.map((p) => (rangeOf(p) ? `${p}@${rangeOf(p)}` : p))].join(' ');
}

const listed = (names: string[]): string => (names.length < 3 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** The 503 of a service whose engine is not installed. */
export function engineNotInstalled(name: EngineName, missing = missingEngine(name)): GatewayError {
  const e: Engine = ENGINES[name];
  const install = installCommand(name);
  return new GatewayError(
    'engine_not_installed',
    `${e.needs}: this installation of agent-gateway does not include the optional package${missing.length === 1 ? '' : 's'} ${listed(missing)}. ` +
      `To add it, run this where agent-gateway is installed: ${install}. Nothing was charged.`,
    { extra: { engine: name, packages: [...e.packages], missing, install } },
  );
}

/** Throws 503 engine_not_installed unless every package of the engine is installed. */
export function requireEngine(name: EngineName): void {
  const missing = missingEngine(name);
  if (missing.length) throw engineNotInstalled(name, missing);
}
