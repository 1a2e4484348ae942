// The service wallet that receives x402 payments and submits their settlement. With no key configured one
// is generated on first start and kept in the data dir (mode 0600); only its address is ever logged.
import fs from 'node:fs';
import path from 'node:path';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

export const WALLET_FILE = 'wallet.json';

export interface ServiceWallet {
  account: PrivateKeyAccount;
  address: `0x${string}`;
  /** Where the key came from: the environment, the data dir, or generated now. */
  source: 'env' | 'file' | 'generated';
}

export function loadOrCreateWallet(dataDir: string, privateKey?: string): ServiceWallet {
  if (privateKey) {
    const account = privateKeyToAccount(privateKey as `0x${string}`);
    return { account, address: account.address, source: 'env' };
  }
  const file = path.join(dataDir, WALLET_FILE);
  if (fs.existsSync(file)) {
    const { privateKey: stored } = JSON.parse(fs.readFileSync(file, 'utf8')) as { privateKey: `0x${string}` };
    const account = privateKeyToAccount(stored);
    return { account, address: account.address, source: 'file' };
  }
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  fs.mkdirSync(dataDir, { recursive: true });
  // wx: never overwrite a wallet another process created a moment ago.
  try {
    fs.writeFileSync(file, JSON.stringify({ address: account.address, privateKey: key }), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateWallet(dataDir);
    throw err;
  }
  return { account, address: account.address, source: 'generated' };
}
