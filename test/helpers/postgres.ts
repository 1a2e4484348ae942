// A real PostgreSQL server for the tests (issue 25): Debian's `postgresql` binaries (initdb, postgres) on a free
// port with a throwaway data directory, started by the test file that needs it and removed after. fsync is off:
// the data dies with the test. As root (CI containers) the server runs as the `postgres` user the Debian package
// creates, because PostgreSQL refuses to run as root. REQUIRE_POSTGRES (set by .ci/run) turns a missing server
// into a failure instead of a skip.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

function findBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v) && Number(v) >= 14).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => path.join(root, v, 'bin')).find((bin) => fs.existsSync(path.join(bin, 'postgres')));
  return found ?? null;
}

export const PG_BIN = findBin();
export const hasPostgres = PG_BIN !== null;
if (!hasPostgres && process.env.REQUIRE_POSTGRES) throw new Error('REQUIRE_POSTGRES is set but no PostgreSQL 14+ is installed (apt-get install postgresql)');

export interface TestPostgres {
  /** postgres://gateway@127.0.0.1:<port>/gateway */
  url: string;
  port: number;
  /** The server's process (its backends are its children). */
  pid: number;
  /** A new empty database on the same server, for a suite that needs its own. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** As root, the uid/gid of the `postgres` user; otherwise the current user runs it. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export async function startPostgres(): Promise<TestPostgres> {
  if (!PG_BIN) throw new Error('PostgreSQL is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-pg-'));
  const data = path.join(dir, 'data');
  const user = runAs();
  if (user) fs.chownSync(dir, user.uid, user.gid);
  execFileSync(path.join(PG_BIN, 'initdb'), ['-D', data, '-U', 'gateway', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions'], { ...user, stdio: 'ignore' });
  const port = await freePort();
  const server: ChildProcess = spawn(
    path.join(PG_BIN, 'postgres'),
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    { ...user, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  server.stderr!.setEncoding('utf8').on('data', (s: string) => (log = (log + s).slice(-4000)));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const psql = (db: string, sql: string) => execFileSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'gateway', '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  for (let i = 0; ; i++) {
    try {
      psql('postgres', 'SELECT 1');
      break;
    } catch (err) {
      if (server.exitCode !== null || i > 200) throw new Error(`PostgreSQL did not start: ${log || (err as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  psql('postgres', 'CREATE DATABASE gateway');
  const urlOf = (db: string) => `postgres://gateway@127.0.0.1:${port}/${db}`;
  return {
    url: urlOf('gateway'),
    port,
    pid: server.pid!,
    async createDatabase(name: string) {
      psql('postgres', `CREATE DATABASE "${name.replace(/"/g, '')}"`);
      return urlOf(name);
    },
    async stop() {
      server.kill('SIGINT'); // fast shutdown: no waiting for clients
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
