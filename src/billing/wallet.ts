// The service wallet that receives x402 payments and submits their settlement. With no key configured one
// is generated on first start and kept in the data dir (mode 0600) with its address; only the address is
// ever logged. viem loads only when an address must be derived or a payment settled, not at every start.
import fs from 'node:fs';
import path from 'node:path';
import type { PrivateKeyAccount } from 'viem/accounts';

export const WALLET_FILE = 'wallet.json';

export interface ServiceWallet {
  address: `0x${string}`;
  /** Where the key came from: the environment, the data dir, or generated now. */
  source: 'env' | 'file' | 'generated';
  /** The viem account (loads viem on first use). */
  account(): Promise<PrivateKeyAccount>;
}

const accounts = () => import('viem/accounts');

function wallet(key: `0x${string}`, address: `0x${string}`, source: ServiceWallet['source']): ServiceWallet {
  let account: Promise<PrivateKeyAccount> | undefined;
  return { address, source, account: () => (account ??= accounts().then((a) => a.privateKeyToAccount(key))) };
}

export async function loadOrCreateWallet(dataDir: string, privateKey?: string): Promise<ServiceWallet> {
  if (privateKey) {
    const key = privateKey as `0x${string}`;
    return wallet(key, (await accounts()).privateKeyToAccount(key).address, 'env');
  }
  const file = path.join(dataDir, WALLET_FILE);
  if (fs.existsSync(file)) {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { privateKey: `0x${string}`; address?: `0x${string}` };
    const address = stored.address ?? (await accounts()).privateKeyToAccount(stored.privateKey).address;
    return wallet(stored.privateKey, address, 'file');
  }
  const { generatePrivateKey, privateKeyToAccount } = await accounts();
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  fs.mkdirSync(dataDir, { recursive: true });
  // wx: never overwrite a wallet another process created a moment ago.
  try {
    fs.writeFileSync(file, JSON.stringify({ address, privateKey: key }), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateWallet(dataDir);
    throw err;
  }
  return wallet(key, address, 'generated');
}
