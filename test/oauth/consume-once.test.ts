// The single use of an authorization code, refresh token or pushed authorization request, in the storage adapter
// (src/http/oauth/record-adapter.ts) on each store: the used mark is conditional, so of two consumes only the first
// passes, whatever their timing; the second answers oidc-provider's error for a reused record of that kind and
// revokes the grant, with the tokens the first may have written meanwhile.
import { errors } from 'oidc-provider';
import { expect, it } from 'vitest';
import { reusedError } from '../../src/http/oauth/provider.js';
import { RecordAdapter } from '../../src/http/oauth/record-adapter.js';
import { onEachStore } from '../helpers/each-store.js';

const TTL = 600;
const reused = reusedError(errors);

onEachStore('consuming an OAuth record', (db) => {
  const adapter = (kind: string) => new RecordAdapter(db(), kind, reused);
  const grantRecords = async (grantId: string) => (await db().all<{ kind: string }>('SELECT kind FROM oauth_records WHERE grant_id = ? ORDER BY kind', [grantId])).map((r) => r.kind);

  it('passes once for two consumes of a code at once; the second is invalid_grant and revokes the grant and its tokens', async () => {
    const at = { accountId: 'agent-1', clientId: 'client-1' };
    await adapter('Grant').upsert('grant-1', { jti: 'grant-1', kind: 'Grant', ...at } as never, TTL);
    await adapter('AuthorizationCode').upsert('code-1', { jti: 'code-1', kind: 'AuthorizationCode', grantId: 'grant-1', ...at } as never, TTL);
    await adapter('AccessToken').upsert('token-1', { jti: 'token-1', kind: 'AccessToken', grantId: 'grant-1', ...at } as never, TTL);
    const outcomes = await Promise.allSettled([adapter('AuthorizationCode').consume('code-1'), adapter('AuthorizationCode').consume('code-1')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(errors.InvalidGrant);
    expect(refused.reason).toMatchObject({ error: 'invalid_grant', error_detail: 'authorization code already used' });
    expect(await grantRecords('grant-1')).toEqual([]);
  });

  it('a refresh token used twice likewise; a fresh one passes', async () => {
    await adapter('RefreshToken').upsert('refresh-1', { jti: 'refresh-1', kind: 'RefreshToken', grantId: 'grant-2' } as never, TTL);
    await adapter('RefreshToken').upsert('refresh-2', { jti: 'refresh-2', kind: 'RefreshToken', grantId: 'grant-3' } as never, TTL);
    await adapter('RefreshToken').consume('refresh-1');
    await expect(adapter('RefreshToken').consume('refresh-1')).rejects.toMatchObject({ error: 'invalid_grant', error_detail: 'refresh token already used' });
    await expect(adapter('RefreshToken').consume('refresh-2')).resolves.toBeUndefined();
    // The used mark is kept, so oidc-provider recognises a later use itself.
    expect((await adapter('RefreshToken').find('refresh-2'))?.consumed).toBeTypeOf('number');
  });

  it('a pushed authorization request used twice answers invalid_request_uri, as oidc-provider does', async () => {
    await adapter('PushedAuthorizationRequest').upsert('par-1', { jti: 'par-1', kind: 'PushedAuthorizationRequest' } as never, TTL);
    await adapter('PushedAuthorizationRequest').consume('par-1');
    const second = adapter('PushedAuthorizationRequest').consume('par-1');
    await expect(second).rejects.toBeInstanceOf(errors.InvalidRequestUri);
    await expect(adapter('PushedAuthorizationRequest').consume('par-1')).rejects.toMatchObject({ error: 'invalid_request_uri' });
  });
});
