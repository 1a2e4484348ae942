// The service wallet that receives x402 payments and submits their settlement. With no key configured one
// is generated on first start and kept in the data dir (mode 0600); only its address is ever logged. viem
// loads only when a payment is settled, not at every start: the address comes from node:crypto and
// @noble/hashes (evm-address.ts), so a gateway installed without the optional x402 packages has a wallet too.
import fs from 'node:fs';
import path from 'node:path';
import type { PrivateKeyAccount } from 'viem/accounts';
import { requireEngine } from '../engines.js';
import { addressOf, newPrivateKey } from './evm-address.js';

export const WALLET_FILE = 'wallet.json';

export interface ServiceWallet {
  address: `0x${string}`;
  /** Where the key came from: the environment, the data dir, or generated now. */
  source: 'env' | 'file' | 'generated';
  /** The viem account (loads viem on first use). */
  account(): Promise<PrivateKeyAccount>;
}

const accounts = async () => {
  requireEngine('x402');
  return import('viem/accounts');
};

function wallet(key: `0x${string}`, address: `0x${string}`, source: ServiceWallet['source']): ServiceWallet {
  let account: Promise<PrivateKeyAccount> | undefined;
  return { address, source, account: () => (account ??= accounts().then((a) => a.privateKeyToAccount(key))) };
}

export async function loadOrCreateWallet(dataDir: string, privateKey?: string): Promise<ServiceWallet> {
  if (privateKey) {
    const key = privateKey as `0x${string}`;
    return wallet(key, addressOf(key), 'env');
  }
  const file = path.join(dataDir, WALLET_FILE);
  if (fs.existsSync(file)) {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { privateKey: `0x${string}` };
    return wallet(stored.privateKey, addressOf(stored.privateKey), 'file');
  }
  const key = newPrivateKey();
  const address = addressOf(key);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written whole to a file of its own, then linked into place: link never overwrites a wallet another process
  // (another instance on a shared data directory) created a moment ago, and nobody ever reads a half-written one.
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ address, privateKey: key }), { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateWallet(dataDir);
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return wallet(key, address, 'generated');
}
