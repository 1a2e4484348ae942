// The per-agent byte quota of artifacts (issue 26, GATEWAY_ARTIFACT_MAX_BYTES): an upload that would take an
// agent's live artifacts past it is refused with 413 naming the quota, the usage and the size; another agent is not
// affected; expired artifacts free their room; concurrent uploads at the edge take exactly the room there is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: { GATEWAY_ARTIFACT_MAX_BYTES: '1000' } });
});
afterAll(async () => gw.cleanup());

const upload = (secret: string, bytes: number, ttl = 3600) =>
  api(gw.url, 'POST', '/artifacts', { secret, body: { text: 'x'.repeat(bytes), filename: 'a.txt', content_type: 'text/plain', ttl_seconds: ttl } });

describe('artifact byte quota', () => {
  it('refuses an upload past the quota with its figures, spares other agents, and frees room as artifacts expire', async () => {
    const a = await register(gw.url, 'art-quota-a');
    const b = await register(gw.url, 'art-quota-b');
    expect((await upload(a.secret, 600, 60)).status).toBe(201);
    expect((await upload(a.secret, 300)).status).toBe(201);
    const over = await upload(a.secret, 200);
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({ code: 'payload_too_large', quota: 'artifact_bytes', limit: 1000, used: 900, size: 200 });
    expect(over.body.error.message).toMatch(/quota of 1000 bytes/);
    expect((await api(gw.url, 'GET', '/artifacts', { secret: a.secret })).body.artifacts).toHaveLength(2);
    expect((await upload(b.secret, 900)).status).toBe(201);
    gw.clock.advance(61_000); // the 600-byte artifact expired
    expect((await upload(a.secret, 200)).status).toBe(201);
  });

  it('concurrent uploads at the edge: exactly as many pass as there is room for', async () => {
    const c = await register(gw.url, 'art-quota-edge');
    expect((await upload(c.secret, 600)).status).toBe(201);
    const racing = await Promise.all(Array.from({ length: 6 }, () => upload(c.secret, 100)));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(4);
    expect(racing.filter((r) => r.status === 413)).toHaveLength(2);
  });
});
