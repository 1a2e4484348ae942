// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1, its 2025 server scenarios; the 0.2
// line with the 2026-07-28 ones runs in conformance-2026.test.ts on Node 22+) and the MCP Inspector CLI against the
// real server. The suite calls fixtures by name (test_simple_text, test://static-text,
// test_simple_prompt, …): test/helpers/conformance-gateway.ts registers them, never the product.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools } from '../../tools/index.js';
import { prompts } from '../../prompts/index.js';
import { resources, resourceTemplates } from '../../resources/index.js';
import { conformanceAdditions, listedServerScenarios, startConformanceGateway } from '../helpers/conformance-gateway.js';
import { tempDir, type TestGateway } from '../helpers/gateway.js';
import { bin, MAIN, ROOT } from '../helpers/paths.js';

const run = promisify(execFile);
/** Its CLI by path: the 0.2 line (conformance-2026.test.ts) installs a bin of the same name. */
const CONFORMANCE = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
let gw: TestGateway;
beforeAll(async () => {
  gw = await startConformanceGateway();
});
afterAll(async () => gw.cleanup());

/** Every one passes with no failure and no warning. */
const PASSING = [
  'server-initialize',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-error',
  'tools-call-elicitation',
  'tools-call-sampling',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'tools-call-with-progress',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'json-schema-2020-12',
  'server-sse-multiple-streams',
  'server-sse-polling',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
];

/**
 * Not run: they exercise Logging, which the 2026-07-28 revision deprecates (docs/decisions/mcp-eras.md, "The
 * conformance suite") and the gateway does not add.
 */
const DEPRECATED: Record<string, string> = {
  'logging-set-level': 'logging/setLevel (Logging is deprecated)',
  'tools-call-with-logging': 'sets the level with logging/setLevel and expects notifications/message from a tool (Logging is deprecated)',
};

/** Not run yet: the product lacks what they exercise. Each becomes a PASSING entry when it lands. */
const WAITING: Record<string, string> = {};

describe('MCP conformance suite (@modelcontextprotocol/conformance)', () => {
  it('every server scenario of the installed suite is run, excluded as deprecated or waiting on the product', async () => {
    const { stdout } = await run(process.execPath, [CONFORMANCE, 'list'], { timeout: 60_000 });
    const listed = listedServerScenarios(stdout);
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...PASSING, ...Object.keys(DEPRECATED), ...Object.keys(WAITING)].sort());
  });

  it('the product ships none of the fixtures: only the harness registers them', () => {
    const { tools = [], resources: res = [], resourceTemplates: templates = [], prompts: fixturePrompts = [] } = conformanceAdditions;
    expect(tools.length).toBeGreaterThan(0);
    expect(allTools.filter((t) => t.toolset === 'conformance' || tools.some((f) => f.name === t.name))).toEqual([]);
    expect(resources.filter((r) => r.uri.startsWith('test://') || res.some((f) => f.uri === r.uri))).toEqual([]);
    expect(resourceTemplates.filter((t) => templates.some((f) => f.uriTemplate === t.uriTemplate))).toEqual([]);
    expect(prompts.filter((p) => fixturePrompts.some((f) => f.name === p.name))).toEqual([]);
  });

  it.each(PASSING)('%s passes', async (scenario) => {
    const { stdout } = await run(process.execPath, [CONFORMANCE, 'server', '--url', `${gw.url}/mcp?toolsets=default,conformance`, '--scenario', scenario], {
      timeout: 60_000,
    });
    const m = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const [passed, total, failed, warnings] = m!.slice(1).map(Number);
    expect(failed, stdout).toBe(0);
    expect(warnings, stdout).toBe(0);
    // A scenario whose checks do not apply reports 0/0: that proves nothing, so it must not count as a pass.
    expect(total, stdout).toBeGreaterThan(0);
    expect(passed, stdout).toBe(total);
  });

  for (const [scenario, gap] of Object.entries(WAITING)) it.todo(`${scenario}: ${gap}`);
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
