import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { addressOf, newPrivateKey } from '../../src/billing/evm-address.js';
import { loadOrCreateWallet } from '../../src/billing/wallet.js';
import { tempDir } from '../helpers/gateway.js';

describe('service wallet', () => {
  it('derives the same checksummed address as viem', () => {
    for (let i = 0; i < 20; i++) {
      const k = i % 2 ? generatePrivateKey() : newPrivateKey();
      expect(addressOf(k)).toBe(privateKeyToAccount(k).address);
    }
  });

  it('is generated once into the data dir with mode 0600 and read back', async () => {
    const dir = tempDir();
    const first = await loadOrCreateWallet(dir);
    expect(first.source).toBe('generated');
    const file = path.join(dir, 'wallet.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = await loadOrCreateWallet(dir);
    expect(again).toMatchObject({ source: 'file', address: first.address });
    expect((await again.account()).address).toBe(first.address);
    const env = await loadOrCreateWallet(dir, '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    expect(env).toMatchObject({ source: 'env', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
