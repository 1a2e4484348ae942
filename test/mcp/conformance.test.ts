// The official MCP conformance suite and the MCP Inspector CLI against the real server.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, tempDir, type TestGateway } from '../helpers/gateway.js';
import { bin, MAIN } from '../helpers/paths.js';

const run = promisify(execFile);
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.cleanup());

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'resources-list', 'prompts-list'];

describe('MCP conformance suite (@modelcontextprotocol/conformance)', () => {
  it.each(SCENARIOS)('%s passes', async (scenario) => {
    const { stdout } = await run(bin('conformance'), ['server', '--url', `${gw.url}/mcp`, '--scenario', scenario], {
      timeout: 60_000,
    });
    const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout);
    expect(m, stdout).not.toBeNull();
    expect(Number(m![3]), stdout).toBe(0);
    expect(Number(m![1])).toBe(Number(m![2]));
  });
});

describe('MCP Inspector CLI', () => {
  it('lists tools over Streamable HTTP', async () => {
    const { stdout } = await run(bin('mcp-inspector'), ['--cli', `${gw.url}/mcp`, '--transport', 'http', '--method', 'tools/list'], {
      timeout: 60_000,
    });
    const names = (JSON.parse(stdout).tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain('agent_register');
  });

  it('lists tools over stdio (built entry) and calls one', async () => {
    const dir = tempDir();
    try {
      // The Inspector passes the server only the variables given with -e.
      const env = ['-e', `GATEWAY_DATA_DIR=${dir}`, '-e', 'LOG_LEVEL=warn'];
      const list = await run(bin('mcp-inspector'), ['--cli', ...env, process.execPath, MAIN, 'mcp', '--method', 'tools/list'], { timeout: 60_000 });
      expect((JSON.parse(list.stdout).tools as { name: string }[]).map((t) => t.name)).toContain('gateway_info');
      const call = await run(
        bin('mcp-inspector'),
        ['--cli', ...env, process.execPath, MAIN, 'mcp', '--method', 'tools/call', '--tool-name', 'agent_register', '--tool-arg', 'handle=inspector-agent'],
        { timeout: 60_000 },
      );
      expect(JSON.parse(call.stdout).structuredContent.handle).toBe('inspector-agent');
      expect(fs.existsSync(`${dir}/gateway.db`)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
