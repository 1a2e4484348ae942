// Issue 2 targets: REST GET /agents/{handle} vs minimal express, MCP tools/call vs the SDK reference,
// start-up to ready.
import { baseline } from '../lib/baseline.js';
import { load, table, type LoadResult } from '../lib/cannon.js';
import { checkToolCall, modernHeaders, modernToolCallBodies, openMcpSession, toolCallBodies } from '../lib/mcp-session.js';
import { startGateway, startScript } from '../lib/processes.js';

export async function foundation(): Promise<string> {
  const out: string[] = ['## Foundation (issue 2)'];

  const bareRes = await baseline('bare.mjs', 'bare node:http GET', '/agents/bench-agent');
  const expressRes = await baseline('express.mjs', 'minimal express GET', '/agents/bench-agent');

  const gw = await startGateway();
  await fetch(`${gw.url}/agents/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handle: 'bench-agent' }) });
  const gwRes = await load('gateway GET /agents/{handle} (db read)', { url: `${gw.url}/agents/bench-agent` });

  const mcpHeaders = await openMcpSession(`${gw.url}/mcp`);
  // A tool as light as the reference's echo: base64 of a short text.
  const gwBody = toolCallBodies('base64', { action: 'encode', text: 'hello' });
  await checkToolCall(`${gw.url}/mcp`, mcpHeaders, gwBody());
  const gwMcp = await load('gateway MCP tools/call (base64 encode)', { url: `${gw.url}/mcp`, method: 'POST', headers: mcpHeaders, makeBody: gwBody });
  // The same call in the stateless 2026-07-28 era.
  const modernBody = modernToolCallBodies('base64', { action: 'encode', text: 'hello' });
  await checkToolCall(`${gw.url}/mcp`, modernHeaders('base64'), modernBody());
  const gwModern = await load('gateway MCP 2026-07-28 tools/call (base64 encode)', { url: `${gw.url}/mcp`, method: 'POST', headers: modernHeaders('base64'), makeBody: modernBody });
  await gw.stop();

  const ref = await startScript('mcp-reference.mjs');
  const refHeaders = await openMcpSession(`${ref.url}/mcp`);
  const refBody = toolCallBodies('echo', { text: 'hello' });
  const refMcp = await load('SDK reference MCP tools/call (echo)', { url: `${ref.url}/mcp`, method: 'POST', headers: refHeaders, makeBody: refBody });
  await ref.stop();

  // Start-up to ready, after build: median of 5 cold starts on a fresh data dir.
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const g = await startGateway();
    starts.push(g.startupMs);
    await g.stop();
  }
  starts.sort((a, b) => a - b);

  const rows: LoadResult[] = [bareRes, expressRes, gwRes];
  out.push(table(rows, { bare: bareRes.rps, express: expressRes.rps }));
  out.push('');
  out.push(table([refMcp, gwMcp, gwModern], { 'SDK reference': refMcp.rps, bare: bareRes.rps }));
  out.push('');
  out.push(`- REST GET /agents/{handle}: ${(gwRes.rps / expressRes.rps).toFixed(2)}× minimal express (target ≥ 0.8), ${(gwRes.rps / bareRes.rps).toFixed(2)}× bare node:http`);
  out.push(`- MCP tools/call: ${(gwMcp.rps / refMcp.rps).toFixed(2)}× the SDK reference (target ≥ 2)`);
  out.push(`- MCP tools/call, 2026-07-28 era: ${(gwModern.rps / bareRes.rps).toFixed(2)}× bare node:http, ${(gwModern.rps / gwMcp.rps).toFixed(2)}× the 2025 session path, ${(gwModern.rps / refMcp.rps).toFixed(2)}× the SDK reference`);
  out.push(`- start-up to ready (spawn → listening, median of 5): ${starts[2].toFixed(0)} ms (target < 1000)`);
  return out.join('\n');
}
