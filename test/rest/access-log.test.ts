// The access line: one per response, with the request id and the route template, never the raw URL (paths may
// hold capability tokens; queries are not logged).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { api, startGateway, register, type TestGateway } from '../helpers/gateway.js';

/** A destination that keeps what is written to it, line by line. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

describe('a gateway logging at info', () => {
  let gw: TestGateway;
  const log = capture();

  beforeAll(async () => {
    gw = await startGateway({ log: createLogger('info', log.stream) });
  });
  afterAll(() => gw.cleanup());

  const requestLines = () => log.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');

  it('writes one line per response with the request id, the route template, the status and the time taken', async () => {
    const agent = await register(gw.url, 'access-line');
    const before = requestLines().length;
    const ok = await api(gw.url, 'GET', `/agents/${agent.handle}`, { headers: { 'x-request-id': 'trace-me.1' } });
    const missing = await api(gw.url, 'GET', '/no/such/route');
    const leaked = await api(gw.url, 'GET', `/agents/${agent.handle}?secret=${agent.secret}`);
    expect([ok.status, missing.status, leaked.status]).toEqual([200, 404, 400]);
    await new Promise((r) => setTimeout(r, 50));
    const lines = requestLines().slice(before);
    expect(lines.map(({ id, method, route, status }) => ({ id, method, route, status }))).toEqual([
      { id: 'trace-me.1', method: 'GET', route: '/agents/{handle}', status: 200 },
      { id: missing.headers.get('x-request-id'), method: 'GET', route: '(unmatched)', status: 404 },
      { id: leaked.headers.get('x-request-id'), method: 'GET', route: '(unmatched)', status: 400 },
    ]);
    for (const l of lines) expect(l).toMatchObject({ level: 30, ms: expect.any(Number) });
    // Neither the secret nor the handle's path is in the log: only templates.
    expect(log.lines.join('\n')).not.toContain(agent.secret);
    expect(lines.map((l) => l.route).join()).not.toContain(agent.handle);
  });
});
