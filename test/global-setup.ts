// Builds dist/ once before the suite: the stdio and CLI tests spawn the built entry point. With
// GATEWAY_TEST_STORE=postgres, also starts one PostgreSQL server for the whole run: every test gateway then gets a
// database of its own on it (test/helpers/gateway.ts), so the end-to-end suites run on PostgreSQL.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startPostgres } from './helpers/postgres.js';

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const root = path.resolve(import.meta.dirname, '..');
  // GATEWAY_TEST_BUILT=1: dist/ is already built (a run of a few files while other work is half-typed).
  if (process.env.GATEWAY_TEST_BUILT !== '1') {
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  }
  if (process.env.GATEWAY_TEST_STORE !== 'postgres') return;
  const server = await startPostgres();
  process.env.TEST_PG_URL = server.url;
  return () => server.stop();
}
