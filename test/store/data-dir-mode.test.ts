// A data directory the gateway creates is readable by its owner alone: it holds the database (agents' data, signing
// secrets, task records), the blobs and the x402 wallet key. (A directory the operator made is left as it is.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startGateway, tempDir } from '../helpers/gateway.js';

describe('the data directory', () => {
  it.skipIf(process.platform === 'win32' || process.env.GATEWAY_TEST_STORE === 'postgres')('is created 0700', async () => {
    const dataDir = path.join(tempDir(), 'fresh', 'data');
    const gw = await startGateway({ dataDir });
    try {
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(fs.existsSync(path.join(dataDir, 'gateway.db'))).toBe(true);
    } finally {
      await gw.cleanup();
    }
  });
});
