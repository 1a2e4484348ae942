// One gateway instance of the multi-instance suites: the built CLI (`serve`) on a shared PostgreSQL database and
// data directory, resolved once it logs "gateway ready" with its URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { MAIN } from '../helpers/paths.js';
import { TEST_ALLOWANCES } from '../helpers/gateway.js';

export interface Instance {
  child: ChildProcess;
  url: string;
  /** The commercial group's listener ({api_url}). */
  apiUrl: string;
}

export const OPERATOR = 'operator-token-for-multi-instance-tests';

export function startInstance(dbUrl: string, dataDir: string, env: Record<string, string> = {}): Promise<Instance> {
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_DATABASE_URL: dbUrl,
      GATEWAY_OPERATOR_TOKEN: OPERATOR,
      GATEWAY_KEYS_PER_CLIENT_PER_DAY: '1000',
      ...TEST_ALLOWANCES,
      GATEWAY_MCP_CHANGE_POLL_MS: '50',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stderr!.on('data', (c: Buffer) => {
      buf = (buf + c.toString()).slice(-20_000);
      const m = /"url":"(http:[^"]+)","api_url":"(http:[^"]+)".*"msg":"gateway ready"/.exec(buf);
      if (m) resolve({ child, url: m[1], apiUrl: m[2] });
    });
    child.once('exit', (code) => reject(new Error(`instance exited ${code}: ${buf}`)));
  });
}
