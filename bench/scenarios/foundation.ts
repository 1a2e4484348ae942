// Issue 2 targets: REST GET /agents/{handle} vs minimal express, MCP tools/call vs the SDK reference,
// start-up to ready. Issue 26 targets: the same read, and an owner read behind a bearer, against the peer a user
// would write by hand (fastify 5 + better-sqlite3, bench/servers/fastify-peer.mjs); MCP against bare node:http; A2A
// message/send against minimal express.
import { a2aToolSendBodies, checkA2aSend } from '../lib/a2a.js';
import { baseline } from '../lib/baseline.js';
import { load, table, type LoadResult } from '../lib/cannon.js';
import { checkToolCall, modernHeaders, modernToolCallBodies, openMcpSession, toolCallBodies } from '../lib/mcp-session.js';
import { startGateway, startScript } from '../lib/processes.js';

export async function foundation(): Promise<string> {
  const out: string[] = ['## Foundation (issue 2)'];

  const bareRes = await baseline('bare.mjs', 'bare node:http GET', '/agents/bench-agent');
  const expressRes = await baseline('express.mjs', 'minimal express GET', '/agents/bench-agent');

  const gw = await startGateway();
  const reg = await fetch(`${gw.url}/agents/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handle: 'bench-agent' }) });
  const { secret } = (await reg.json()) as { secret: string };
  const bearer = { authorization: `Bearer ${secret}` };
  const put = await fetch(`${gw.url}/memory/notes/k1`, { method: 'PUT', headers: { 'content-type': 'application/json', ...bearer }, body: JSON.stringify({ value: { text: 'hello' } }) });
  if (put.status !== 200) throw new Error(`memory put answered ${put.status}`);
  const gwRes = await load('gateway GET /agents/{handle} (db read)', { url: `${gw.url}/agents/bench-agent` });
  const gwOwner = await load('gateway GET /memory/{ns}/{key} (Bearer)', { url: `${gw.url}/memory/notes/k1`, headers: bearer });

  const mcpHeaders = await openMcpSession(`${gw.url}/mcp`);
  // A tool as light as the reference's echo: base64 of a short text.
  const gwBody = toolCallBodies('base64', { action: 'encode', text: 'hello' });
  await checkToolCall(`${gw.url}/mcp`, mcpHeaders, gwBody());
  const gwMcp = await load('gateway MCP tools/call (base64 encode)', { url: `${gw.url}/mcp`, method: 'POST', headers: mcpHeaders, makeBody: gwBody });
  // The same call in the stateless 2026-07-28 era.
  const modernBody = modernToolCallBodies('base64', { action: 'encode', text: 'hello' });
  await checkToolCall(`${gw.url}/mcp`, modernHeaders('base64'), modernBody());
  const gwModern = await load('gateway MCP 2026-07-28 tools/call (base64 encode)', { url: `${gw.url}/mcp`, method: 'POST', headers: modernHeaders('base64'), makeBody: modernBody });
  // A2A message/send with a data part calling the same tool: each request mints and stores its task.
  const a2aBody = a2aToolSendBodies('base64', { action: 'encode', text: 'hello' });
  await checkA2aSend(`${gw.url}/a2a`, a2aBody());
  const gwA2a = await load('gateway A2A message/send (base64 encode)', { url: `${gw.url}/a2a`, method: 'POST', headers: { 'content-type': 'application/json' }, makeBody: a2aBody });
  await gw.stop();

  // The peer, with the same secret so its bearer check hashes a secret of the same length.
  const peerEnv = { BENCH_PEER_SECRET: secret };
  const peerRes = await baseline('fastify-peer.mjs', 'fastify + better-sqlite3 GET /agents/:handle', '/agents/bench-agent', {}, peerEnv);
  const peerOwner = await baseline('fastify-peer.mjs', 'fastify + better-sqlite3 GET /memory/:ns/:key (Bearer)', '/memory/notes/k1', { headers: bearer }, peerEnv);
  // The same peer keeping a log, as the gateway must (one line or more a request): fastify's own logger, on.
  const logged = { ...peerEnv, BENCH_PEER_LOG: '1' };
  const peerLogged = await baseline('fastify-peer.mjs', 'fastify + better-sqlite3 GET /agents/:handle, logger on', '/agents/bench-agent', {}, logged);
  const peerOwnerLogged = await baseline('fastify-peer.mjs', 'fastify + better-sqlite3 GET /memory/:ns/:key (Bearer), logger on', '/memory/notes/k1', { headers: bearer }, logged);

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

  const rows: LoadResult[] = [bareRes, expressRes, peerRes, peerLogged, gwRes, peerOwner, peerOwnerLogged, gwOwner, gwA2a];
  out.push(table(rows, { bare: bareRes.rps, express: expressRes.rps, fastify: peerRes.rps }));
  out.push('');
  out.push(table([refMcp, gwMcp, gwModern], { 'SDK reference': refMcp.rps, bare: bareRes.rps }));
  out.push('');
  out.push(`- REST GET /agents/{handle}: ${(gwRes.rps / expressRes.rps).toFixed(2)}× minimal express (target ≥ 0.8), ${(gwRes.rps / bareRes.rps).toFixed(2)}× bare node:http`);
  out.push(`- MCP tools/call: ${(gwMcp.rps / refMcp.rps).toFixed(2)}× the SDK reference (target ≥ 2)`);
  out.push(`- MCP tools/call, 2026-07-28 era: ${(gwModern.rps / bareRes.rps).toFixed(2)}× bare node:http, ${(gwModern.rps / gwMcp.rps).toFixed(2)}× the 2025 session path, ${(gwModern.rps / refMcp.rps).toFixed(2)}× the SDK reference`);
  out.push(`- REST GET /agents/{handle}: ${(gwRes.rps / peerRes.rps).toFixed(2)}× the fastify peer (issue 26 target ≥ 1.0)`);
  out.push(`- owner read GET /memory/{ns}/{key} with a Bearer: ${(gwOwner.rps / peerOwner.rps).toFixed(2)}× the fastify peer's bearer variant (issue 26 target ≥ 1.0)`);
  out.push(`- the same two reads against the fastify peer with its logger on (fastify's default request logging, as the gateway keeps an access line): ${(gwRes.rps / peerLogged.rps).toFixed(2)}×, ${(gwOwner.rps / peerOwnerLogged.rps).toFixed(2)}×`);
  out.push(`- MCP tools/call against bare node:http: 2026-07-28 era ${(gwModern.rps / bareRes.rps).toFixed(2)}× (issue 26 target ≥ 0.35), 2025 session path ${(gwMcp.rps / bareRes.rps).toFixed(2)}× (target ≥ 0.25); both ≥ 2× the SDK reference`);
  out.push(`- A2A message/send (base64 encode, a stored task each): ${(gwA2a.rps / expressRes.rps).toFixed(2)}× minimal express (issue 26 target ≥ 0.8)`);
  out.push(`- start-up to ready (spawn → listening, median of 5): ${starts[2].toFixed(0)} ms (target < 1000; issue 26 target < 500)`);
  return out.join('\n');
}
