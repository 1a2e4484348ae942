// A2A sends without credentials, per client address (issue 42, docs/decisions/a2a-abandoned-tasks.md): exactly the
// limit of 50 concurrent message/send pass, on one gateway and across three instances on one PostgreSQL; the rest
// get -32000 rate_limited with the wait; another address has its own minute, and credentials are not counted.
import { expect, it } from 'vitest';
import { api } from '../helpers/gateway.js';
import { rpc, userText } from '../a2a/rpc.js';
import { BURST, from, onEachCluster } from './limits-cluster.js';

const PER_MINUTE = 20;

onEachCluster('A2A sends without credentials', { GATEWAY_A2A_ANONYMOUS_SENDS_PER_MINUTE: String(PER_MINUTE) }, (cluster) => {
  it(`${PER_MINUTE} of ${BURST} concurrent sends from one address pass, the rest -32000 rate_limited`, async () => {
    const sends = await Promise.all(
      Array.from({ length: BURST }, (_, i) => rpc(cluster().next(), 'message/send', userText(i % 2 ? 'convert 255 to base 2' : `how do I store secret ${i}?`), from('10.42.0.1'))),
    );
    expect(sends.filter((s) => s.body.result)).toHaveLength(PER_MINUTE);
    const refused = sends.filter((s) => s.body.error);
    expect(refused).toHaveLength(BURST - PER_MINUTE);
    for (const r of refused) expect(r.body.error).toMatchObject({ code: -32000, data: { code: 'rate_limited', status: 429, limit: PER_MINUTE } });
    expect(Math.max(...refused.map((r) => r.body.error.data.retryAfter as number))).toBeLessThanOrEqual(60);

    // Another address has its own minute; a key is not counted.
    expect((await rpc(cluster().next(), 'message/send', userText('what can you do?'), from('10.42.0.2'))).body.result.kind).toBe('task');
    const key = (await api(cluster().next(), 'POST', '/keys/issue', { body: { email: 'a2a-cluster@example.com' }, headers: from('10.42.0.3') })).body.key;
    const keyed = await Promise.all(Array.from({ length: 5 }, () => rpc(cluster().next(), 'message/send', userText('what can you do?'), { ...from('10.42.0.1'), 'x-api-key': key })));
    expect(keyed.map((k) => k.body.result?.status.state)).toEqual(keyed.map(() => 'completed'));
  });
});
