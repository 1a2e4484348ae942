// Verification of a decoded payment before the tool runs. Always local: the EIP-712 signature must recover
// `from` (an EOA signature, checked without the chain). Then either the payer's cached view covers the amount
// (warm: no chain access) or the local facilitator verifies in full against the chain (cold: signature, payTo,
// amount, window, asset, and a simulation of transferWithAuthorization that catches a used nonce and an
// insufficient balance), while the payer's balance is read to refresh the view.
import type { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentRequirements } from '@x402/core/types';
import { authorizationTypes, eip3009ABI } from '@x402/evm';
import { concat, getAddress, hashDomain, hashStruct, hexToBytes, keccak256, type Hex } from 'viem';
import { GatewayError } from '../../errors.js';
import { rpcTrace, type ChainClient, type RpcTrace } from './chain.js';
import { signedBy } from './ecdsa.js';
import type { DecodedPayment } from './payload.js';
import type { PayerViews } from './payer-view.js';
import { PaymentRejected, Reason } from './reasons.js';

export type VerifyPath = 'warm' | 'cold';

const DOMAIN_TYPES = {
  EIP712Domain: [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
} as const;

/** EIP-712 domain separators per token: the same for every payment, so hashed once. */
const domains = new Map<string, Hex>();

function domainSeparator(req: PaymentRequirements, chainId: number): Hex {
  const name = String(req.extra?.name);
  const version = String(req.extra?.version);
  const key = `${name}|${version}|${chainId}|${req.asset.toLowerCase()}`;
  let sep = domains.get(key);
  if (!sep) {
    sep = hashDomain({ domain: { name, version, chainId: BigInt(chainId), verifyingContract: getAddress(req.asset) }, types: DOMAIN_TYPES });
    if (domains.size > 64) domains.clear();
    domains.set(key, sep);
  }
  return sep;
}

/**
 * True when a plain 65-byte ECDSA signature over the authorization (EIP-712) recovers `from` as the token's
 * ecrecover would (see ecdsa.ts). False sends the payment down the full (chain) verification, which also
 * covers smart-wallet signatures.
 */
export async function ecdsaRecoversPayer(d: DecodedPayment, req: PaymentRequirements, chainId: number): Promise<boolean> {
  if (d.signature.length !== 132) return false;
  const a = d.authorization;
  try {
    const struct = hashStruct({
      primaryType: 'TransferWithAuthorization',
      types: authorizationTypes,
      data: {
        from: getAddress(a.from),
        to: getAddress(a.to),
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce as Hex,
      },
    });
    return signedBy(hexToBytes(keccak256(concat(['0x1901', domainSeparator(req, chainId), struct]))), d.signature, a.from);
  } catch {
    return false;
  }
}

const unreachable = () =>
  new GatewayError('unavailable', 'The payment network cannot be reached to verify the payment; retry later or use an API key.');

export class PaymentVerifier {
  constructor(
    private readonly facilitator: x402Facilitator,
    private readonly client: ChainClient,
    private readonly views: PayerViews,
    private readonly chainId: number,
  ) {}

  /** The local signature check, done first (see ecdsaRecoversPayer). */
  signedByPayer(d: DecodedPayment, req: PaymentRequirements): Promise<boolean> {
    return ecdsaRecoversPayer(d, req, this.chainId);
  }

  /**
   * Verifies and reserves the amount in the payer's view; throws PaymentRejected (402) or unavailable (503).
   * `ecdsa`: the result of signedByPayer for this payment.
   */
  async verify(d: DecodedPayment, req: PaymentRequirements, now: number, ecdsa: boolean): Promise<VerifyPath> {
    const payer = d.authorization.from;
    const value = BigInt(d.authorization.value);
    if (ecdsa && this.views.tryReserve(payer, value, now)) return 'warm';

    const trace: RpcTrace = {};
    let result: Awaited<ReturnType<x402Facilitator['verify']>>;
    let balance: bigint | undefined;
    try {
      [result, balance] = await rpcTrace.run(trace, () =>
        Promise.all([
          this.facilitator.verify(d.payload, req),
          this.client
            .readContract({ address: getAddress(req.asset), abi: eip3009ABI, functionName: 'balanceOf', args: [getAddress(payer)] })
            .then((b) => b as bigint)
            .catch(() => undefined),
        ]),
      );
    } catch (err) {
      if (trace.transportError) throw unreachable();
      throw err;
    }
    if (!result.isValid) {
      if (trace.transportError) throw unreachable();
      let reason = result.invalidReason ?? Reason.simulationFailed;
      if (reason === Reason.simulationFailed) reason = await this.diagnose(d, req, balance).catch(() => reason);
      throw new PaymentRejected(reason, undefined, payer);
    }
    // A contract wallet's signature (ERC-1271) passed the facilitator; it never takes the warm path.
    this.views.refreshAndReserve(payer, ecdsa ? balance : undefined, value, now);
    return 'cold';
  }

  /**
   * Why the simulated transfer failed, read call by call. The facilitator's own diagnosis batches its reads
   * through Multicall3, which a chain without it (a local test chain) does not have.
   */
  private async diagnose(d: DecodedPayment, req: PaymentRequirements, balance: bigint | undefined): Promise<string> {
    const a = d.authorization;
    const used = (await this.client.readContract({
      address: getAddress(req.asset),
      abi: eip3009ABI,
      functionName: 'authorizationState',
      args: [getAddress(a.from), a.nonce as Hex],
    })) as boolean;
    if (used) return Reason.nonceUsed;
    if (balance !== undefined && balance < BigInt(a.value)) return Reason.insufficientBalance;
    return Reason.simulationFailed;
  }
}
