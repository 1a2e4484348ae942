import { describe, expect, it } from 'vitest';
import { api, register, startGateway, tempDir } from '../helpers/gateway.js';

describe('start/stop', () => {
  it('keeps data written before a restart', async () => {
    const dataDir = tempDir();
    const first = await startGateway({ dataDir });
    const a = await register(first.url, 'survivor');
    await first.stop();
    const second = await startGateway({ dataDir });
    try {
      expect((await api(second.url, 'GET', '/agents/survivor')).status).toBe(200);
      expect((await api(second.url, 'GET', '/agents/me', { secret: a.secret })).body.handle).toBe('survivor');
      const v = await second.gateway.db.get<{ v: number }>('SELECT MAX(version) AS v FROM schema_migrations');
      expect(v?.v).toBeGreaterThanOrEqual(1);
    } finally {
      await second.cleanup();
    }
  });
});
