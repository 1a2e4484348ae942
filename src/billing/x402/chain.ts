// The service wallet on the payment network: a viem client on X402_RPC_URL and the FacilitatorEvmSigner the
// local x402 facilitator verifies and settles with. Added to what @x402/evm expects of a signer:
// - getCode answers from a short cache (payer and asset code barely change; the facilitator asks per call),
// - transactions are signed and sent one at a time with a locally counted nonce, so concurrent settlements
//   never collide on a nonce nor leave a gap when one fails before sending,
// - the transaction hash is handed to the ledger (through the settle context) before it is broadcast, so a
//   crash at any point leaves a hash that start-up recovery can look up.
import { toFacilitatorEvmSigner, type FacilitatorEvmSigner } from '@x402/evm';
import {
  BaseError,
  concat,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  HttpRequestError,
  http,
  keccak256,
  publicActions,
  TimeoutError,
  type Abi,
  type Chain,
  type Hex,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { base, baseSepolia } from 'viem/chains';
import type { X402Config } from '../../config.js';
import { ScopedStorage } from '../../scoped-storage.js';

export type Address = `0x${string}`;

export function chainFor(s: Pick<X402Config, 'chainId' | 'network' | 'rpcUrl'>): Chain {
  const rpcUrls = { default: { http: [s.rpcUrl] } };
  if (s.chainId === base.id) return { ...base, rpcUrls };
  if (s.chainId === baseSepolia.id) return { ...baseSepolia, rpcUrls };
  return defineChain({ id: s.chainId, name: s.network, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls });
}

export function createChainClient(account: PrivateKeyAccount, s: X402Config) {
  return createWalletClient({
    account,
    chain: chainFor(s),
    transport: http(s.rpcUrl, { timeout: 10_000, retryCount: 1 }),
    pollingInterval: 500,
  }).extend(publicActions);
}

export type ChainClient = ReturnType<typeof createChainClient>;

/** True when an error says the node could not be reached (not that the call reverted). */
export const isTransportError = (err: unknown): boolean =>
  err instanceof BaseError ? Boolean(err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)) : false;

/** Per settlement: the ledger hook for the hash, and what happened on the way (for diagnosis). */
export interface SettleContext {
  onSigned?: (hash: Hex) => Promise<void>;
  /** Test hook: runs after broadcast, before the receipt is awaited. */
  afterBroadcast?: (hash: Hex) => Promise<void>;
}

/** Per verification or settlement: set when the node could not be reached during it. */
export interface RpcTrace {
  transportError?: unknown;
}

export const settleContext = new ScopedStorage<SettleContext>();
export const rpcTrace = new ScopedStorage<RpcTrace>();

function traced<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: unknown) => {
    const t = rpcTrace.getStore();
    if (t && isTransportError(err)) t.transportError ??= err;
    throw err;
  });
}

const CODE_TTL_MS = 5 * 60_000;
const CODE_CACHE_MAX = 10_000;
const FEES_TTL_MS = 3_000;
/** Gas limit of a settlement: transferWithAuthorization uses about 60–90k on USDC. */
export const SETTLE_GAS_LIMIT = 200_000n;

/** Sends signed transactions from one account one at a time, counting the nonce locally. */
class Submitter {
  private tail: Promise<unknown> = Promise.resolve();
  private nextNonce?: number;

  constructor(private readonly client: ChainClient) {}

  send(tx: { to: Address; data: Hex; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }): Promise<Hex> {
    const run = () => this.sendNow(tx, true);
    const p = this.tail.then(run, run);
    this.tail = p.catch(() => undefined);
    return p;
  }

  private async sendNow(tx: Parameters<Submitter['send']>[0], retry: boolean): Promise<Hex> {
    const { client } = this;
    const account = client.account;
    this.nextNonce ??= await traced(client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
    const nonce = this.nextNonce;
    const raw = await account.signTransaction({ ...tx, chainId: client.chain.id, type: 'eip1559', nonce });
    const hash = keccak256(raw);
    // Write-ahead: the ledger knows the hash before the network does.
    await settleContext.getStore()?.onSigned?.(hash);
    try {
      await traced(client.sendRawTransaction({ serializedTransaction: raw }));
      this.nextNonce = nonce + 1;
    } catch (err) {
      // Re-read the nonce from the node next time (another sender, a dropped transaction).
      this.nextNonce = undefined;
      if (retry && !isTransportError(err) && /nonce/i.test(String((err as Error).message))) return this.sendNow(tx, false);
      throw err;
    }
    return hash;
  }
}

export interface ServiceSigner {
  signer: FacilitatorEvmSigner;
  client: ChainClient;
}

export function createServiceSigner(client: ChainClient, confirmationTimeoutMs: number): ServiceSigner {
  const codes = new Map<string, { at: number; code: Promise<Hex | undefined> }>();
  let fees: { at: number; value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> } | undefined;
  const submitter = new Submitter(client);
  const address = client.account.address;

  // Never rejects: @x402/evm starts its asset check early and may return before awaiting it, so a rejection
  // there would go unhandled. A node that cannot be reached is noted in the RpcTrace instead, and the caller
  // answers 503 (verification) or keeps the payment open (settlement).
  const getCode = ({ address: a }: { address: Address }): Promise<Hex | undefined> => {
    const key = a.toLowerCase();
    const now = Date.now();
    const hit = codes.get(key);
    if (hit && now - hit.at < CODE_TTL_MS) return hit.code;
    const code = traced(client.getCode({ address: a })).catch(() => {
      codes.delete(key);
      return undefined;
    });
    if (codes.size >= CODE_CACHE_MAX) codes.delete(codes.keys().next().value as string);
    codes.set(key, { at: now, code });
    return code;
  };

  const feesNow = () => {
    const now = Date.now();
    if (!fees || now - fees.at > FEES_TTL_MS) {
      const value = traced(client.estimateFeesPerGas());
      fees = { at: now, value };
      value.catch(() => (fees = undefined));
    }
    return fees.value;
  };

  // The transfer is simulated with eth_call first (a revert is reported with its reason and nothing is sent);
  // the gas limit is fixed rather than estimated: eth_estimateGas costs several round trips and ganache can
  // stall on it while it mines. Unused gas is not charged.
  const send = async (to: Address, data: Hex, gas?: bigint): Promise<Hex> => {
    const [, fee] = await Promise.all([traced(client.call({ account: client.account, to, data })), feesNow()]);
    const hash = await submitter.send({ to, data, gas: gas ?? SETTLE_GAS_LIMIT, ...fee });
    await settleContext.getStore()?.afterBroadcast?.(hash);
    return hash;
  };

  const signer = toFacilitatorEvmSigner(
    {
      address,
      getCode,
      readContract: (args) => traced(client.readContract(args as never)),
      verifyTypedData: (args) => traced(client.verifyTypedData(args as never)),
      writeContract: ({ address: to, abi, functionName, args, gas, dataSuffix }) => {
        const call = encodeFunctionData({ abi: abi as Abi, functionName, args } as never);
        return send(to, dataSuffix ? concat([call, dataSuffix]) : call, gas);
      },
      sendTransaction: ({ to, data }) => send(to, data),
      waitForTransactionReceipt: ({ hash, timeout }) => traced(client.waitForTransactionReceipt({ hash, timeout: timeout ?? confirmationTimeoutMs })),
    },
    { confirmationTimeoutMs },
  );
  return { signer, client };
}
