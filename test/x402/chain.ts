// A real local chain for x402 tests and benchmarks: ganache on 127.0.0.1 (in this process, or a child
// process for benchmarks), the project's EIP-3009 test token (test/fixtures/token, compiled from
// contracts/TestUSDC.sol by scripts/compile-token.mjs) deployed, a payer funded with tokens and the service
// wallet with ETH for gas.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import ganache from 'ganache';
import { authorizationTypes } from '@x402/evm';
import { createPublicClient, createWalletClient, defineChain, http, keccak256, toHex, type Abi, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/token/TestUSDC.json'), 'utf8')) as { abi: Abi; bytecode: Hex };
export const tokenAbi = fixture.abi;

export const CHAIN_ID = 1337;
export const NETWORK = `eip155:${CHAIN_ID}` as const;
export const TOKEN_NAME = 'Test USDC';
export const TOKEN_VERSION = '2';

const key = (n: number): Hex => `0x${n.toString(16).padStart(2, '0').repeat(32)}` as Hex;
/** Fixed keys: deployer (mints), the gateway's service wallet, and payers. */
export const KEYS = { deployer: key(0x11), service: key(0x22), payer: key(0x33), poor: key(0x44), other: key(0x55), bench: key(0x66) } as const;
export type Who = keyof typeof KEYS;
export const accountOf = (who: Who): PrivateKeyAccount => privateKeyToAccount(KEYS[who]);

const ETH = 10n ** 18n;

export interface LocalChain {
  url: string;
  token: `0x${string}`;
  balanceOf(address: `0x${string}`): Promise<bigint>;
  authorizationState(from: `0x${string}`, nonce: Hex): Promise<boolean>;
  mint(to: `0x${string}`, amount: bigint): Promise<void>;
  /** Transactions sent by an address (its nonce). */
  txCount(address: `0x${string}`): Promise<number>;
  /** Moves a payer's tokens by an EIP-3009 authorization it signs, submitted by the deployer (who has gas). */
  transferByAuthorization(from: Who, to: `0x${string}`, value: bigint): Promise<void>;
  /** Gateway environment paying on this chain with this token, settled by the service wallet. */
  env(extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

const ganacheOptions = (accounts: Hex[]) => ({
  chain: { chainId: CHAIN_ID },
  // Payer accounts hold no ETH: they only sign; the service wallet pays the gas.
  wallet: { accounts: accounts.map((k) => ({ secretKey: k, balance: `0x${(k === KEYS.deployer || k === KEYS.service ? 1000n * ETH : 0n).toString(16)}` })) },
  logging: { quiet: true },
  miner: { instamine: 'eager' as const },
});

async function startInProcess(accounts: Hex[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = ganache.server(ganacheOptions(accounts) as never);
  await server.listen(0 as never, '127.0.0.1');
  const { port } = (server as unknown as { address(): { port: number } }).address();
  return { url: `http://127.0.0.1:${port}`, stop: () => server.close() };
}

/** A port free right now (the ganache CLI does not take port 0). */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.once('error', reject);
  });

async function startChild(accounts: Hex[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const o = ganacheOptions(accounts);
  const args = [
    path.join(root, 'node_modules/ganache/dist/node/cli.js'),
    '--chain.chainId', String(CHAIN_ID),
    '--server.host', '127.0.0.1',
    '--server.port', String(await freePort()),
    '--miner.instamine', 'eager',
    ...o.wallet.accounts.flatMap((a) => ['--wallet.accounts', `${a.secretKey},${a.balance}`]),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (l) => {
      const m = /RPC Listening on ([\d.]+:\d+)/.exec(l);
      if (m) resolve(`http://${m[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`ganache exited with ${code}: ${stderr.slice(-500)}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function startChain(o: { child?: boolean; fund?: Partial<Record<Who, bigint>> } = {}): Promise<LocalChain> {
  const accounts = Object.values(KEYS);
  const node = o.child ? await startChild(accounts) : await startInProcess(accounts);
  const chain = defineChain({ id: CHAIN_ID, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
  const pub = createPublicClient({ chain, transport: http(node.url), pollingInterval: 50 });
  const deployer = createWalletClient({ chain, transport: http(node.url), account: accountOf('deployer') });
  const deployed = await pub.waitForTransactionReceipt({
    hash: await deployer.deployContract({ abi: tokenAbi, bytecode: fixture.bytecode, args: [TOKEN_NAME, TOKEN_VERSION] }),
  });
  const token = deployed.contractAddress!;
  const mint = async (to: `0x${string}`, amount: bigint) => {
    await pub.waitForTransactionReceipt({ hash: await deployer.writeContract({ address: token, abi: tokenAbi, functionName: 'mint', args: [to, amount] }) });
  };
  for (const [who, amount] of Object.entries(o.fund ?? { payer: 10_000_000n })) await mint(accountOf(who as Who).address, amount);
  return {
    url: node.url,
    token,
    balanceOf: async (address) => (await pub.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [address] })) as bigint,
    authorizationState: async (from, nonce) =>
      (await pub.readContract({ address: token, abi: tokenAbi, functionName: 'authorizationState', args: [from, nonce] })) as boolean,
    mint,
    txCount: (address) => pub.getTransactionCount({ address }),
    transferByAuthorization: async (from, to, value) => {
      const signer = accountOf(from);
      const message = { from: signer.address, to, value, validAfter: 0n, validBefore: 2n ** 48n, nonce: keccak256(toHex(`drain-${Date.now()}-${Math.random()}`)) };
      const signature = await signer.signTypedData({
        domain: { name: TOKEN_NAME, version: TOKEN_VERSION, chainId: CHAIN_ID, verifyingContract: token },
        types: authorizationTypes,
        primaryType: 'TransferWithAuthorization',
        message,
      });
      const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature];
      await pub.waitForTransactionReceipt({ hash: await deployer.writeContract({ address: token, abi: tokenAbi, functionName: 'transferWithAuthorization', args }) });
    },
    env: (extra = {}) => ({
      X402_NETWORK: NETWORK,
      X402_RPC_URL: node.url,
      X402_ASSET: token,
      X402_ASSET_NAME: TOKEN_NAME,
      X402_ASSET_VERSION: TOKEN_VERSION,
      X402_ASSET_DECIMALS: '6',
      X402_PRIVATE_KEY: KEYS.service,
      ...extra,
    }),
    stop: node.stop,
  };
}
