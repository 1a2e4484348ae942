// x402 payments of orders (issue 23), the half of the order rail (src/commerce/x402-rail.ts) that loads with
// @x402/evm and viem: `place` verifies and claims an authorization when the order is placed, `settle` settles it
// on chain when the result is delivered (from any process, after restarts: the ledger row and the rail's hold
// data are enough), `release` closes the claim. Ledger rows of orders have tool `order:<orderId>`; recovery
// leaves them alone while their authorization is valid (docs/decisions/commercial-x402.md).
import { performance } from 'node:perf_hooks';
import type { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { eip3009ABI } from '@x402/evm';
import { getAddress, type Hex } from 'viem';
import { newId } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import { GatewayError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Transport } from '../../registry/call-types.js';
import type { Db } from '../../store/db.js';
import * as ledger from '../../store/x402-ledger.js';
import { rpcTrace, settleContext, type ChainClient, type RpcTrace } from './chain.js';
import type { X402Hooks } from './method.js';
import { checkWindow, decodePayment, SETTLE_MARGIN_SECONDS, type DecodedPayment } from './payload.js';
import type { PayerViews } from './payer-view.js';
import { describeReason, PaymentRejected, Reason } from './reasons.js';
import { paymentError } from './receipts.js';
import type { PaymentVerifier } from './verifier.js';

/** The payment header an order was placed with (PAYMENT-SIGNATURE, or the legacy X-PAYMENT). */
export interface OrderPaymentHeader {
  paymentSignature?: string;
  xPayment?: string;
}

export interface PlaceOrderPayment {
  orderId: string;
  payment: OrderPaymentHeader;
  requirements: PaymentRequirements;
  /** Unix seconds validBefore must reach: the order's capture window plus the settle margin. */
  validUntil: number;
  transport: Transport;
  /** The 402 challenge for this order, its `error` saying why. */
  challenge: (error: string) => PaymentRequired;
  /** The placing call's headers: Server-Timing is added; a 402 carries them. */
  headers: Record<string, string>;
}

export interface PlacedOrderPayment {
  /** The ledger id (`pay_…`). */
  paymentId: string;
  payer: string;
  /** Unix seconds: the hold cannot be settled from validBefore − 6 s on. */
  validBefore: number;
}

export interface X402OrderDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  facilitator: x402Facilitator;
  verifier: PaymentVerifier;
  views: PayerViews;
  client: ChainClient;
  hooks: X402Hooks;
  scheduleRecheck: () => void;
  /** Shared with recovery, which leaves these rows alone. */
  inFlight: Set<string>;
}

const ms = (n: number): string => n.toFixed(2);

const retryLater = (words: string) => new GatewayError('unavailable', `The order's payment could not be captured yet: ${words}; retry later.`);

export class X402OrderPayments {
  /** Captures running in this process, so a second capture of one hold waits for the first. */
  private readonly capturing = new Map<string, Promise<{ transaction: string | null }>>();

  constructor(private readonly deps: X402OrderDeps) {}

  /** Decodes, verifies and claims the authorization; throws a 402 (the challenge and the reason) and claims nothing. */
  async place(o: PlaceOrderPayment): Promise<PlacedOrderPayment> {
    const started = performance.now();
    const { db, clock, verifier, views } = this.deps;
    const req = o.requirements;
    const reject = (e: PaymentRejected) => paymentError(o.challenge(`Payment rejected: ${e.message}`), o.headers);
    const now = clock.now();
    let d: DecodedPayment;
    try {
      d = decodePayment({ ...o.payment, ip: '', transport: o.transport }, req);
      checkWindow(d.authorization, now);
      const vb = BigInt(d.authorization.validBefore);
      if (vb < BigInt(o.validUntil)) {
        const nowS = Math.floor(now / 1000);
        throw new PaymentRejected(
          Reason.validBefore,
          `the order needs an authorization valid for at least ${o.validUntil - nowS} seconds (validBefore ≥ ${o.validUntil}), ` +
            `this one is valid for ${vb - BigInt(nowS)}: sign it for the maxTimeoutSeconds of the requirements (${req.maxTimeoutSeconds})`,
          d.authorization.from,
        );
      }
    } catch (err) {
      if (err instanceof PaymentRejected) throw reject(err);
      throw err;
    }
    const a = d.authorization;
    const id = newId('pay');
    // Claim first, as pay-per-call does: the UNIQUE key lets one order use an authorization, even released.
    const claim = ledger.claim(db, {
      id,
      network: req.network,
      asset: req.asset,
      payer: a.from,
      nonce: a.nonce,
      payTo: req.payTo,
      amount: a.value,
      tool: `${ledger.ORDER_HOLD_PREFIX}${o.orderId}`,
      transport: o.transport,
      x402Version: d.version,
      validBefore: Number(BigInt(a.validBefore) > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : a.validBefore),
      now,
    });
    claim.catch(() => undefined); // awaited below
    const ecdsa = await verifier.signedByPayer(d, req);
    if (!(await claim)) throw reject(new PaymentRejected(Reason.nonceUsed, undefined, a.from));
    this.deps.inFlight.add(id);
    let path: string;
    try {
      path = await verifier.verify(d, req, now, ecdsa);
    } catch (err) {
      await ledger.discard(db, id);
      if (err instanceof PaymentRejected) throw reject(err);
      throw err;
    } finally {
      this.deps.inFlight.delete(id);
    }
    // An authorization locks no funds, and the hold may be settled by another process: the payer's view keeps
    // no reservation for it (settlement stays the guarantee).
    views.released(a.from, BigInt(a.value));
    o.headers['Server-Timing'] = `x402-verify;dur=${ms(performance.now() - started)};desc="${path}"`;
    return { paymentId: id, payer: a.from, validBefore: Number(a.validBefore) };
  }

  /**
   * Settles the whole authorization on chain. Settled already → the same answer, nothing sent. A refused or
   * impossible settlement → 402 'Settlement failed' (row failed or released); not known yet (unreachable node,
   * unconfirmed transaction, a capture under way elsewhere) → 503, and the capture may be retried.
   */
  settle(paymentId: string, payment: OrderPaymentHeader, req: PaymentRequirements, challenge: (error: string) => PaymentRequired): Promise<{ transaction: string | null }> {
    let p = this.capturing.get(paymentId);
    if (!p) {
      p = this.settleOnce(paymentId, payment, req, challenge).finally(() => {
        this.capturing.delete(paymentId);
        this.deps.inFlight.delete(paymentId);
      });
      this.capturing.set(paymentId, p);
    }
    return p;
  }

  /** 'verified' → 'released' (nothing on chain); a no-op for a hold released, settled or settling. */
  async release(paymentId: string): Promise<void> {
    await ledger.setStatus(this.deps.db, paymentId, ['verified'], 'released', this.deps.clock.now());
  }

  private async settleOnce(id: string, payment: OrderPaymentHeader, req: PaymentRequirements, challenge: (error: string) => PaymentRequired): Promise<{ transaction: string | null }> {
    const { db, clock, hooks, log, views } = this.deps;
    const failed = (words: string) => paymentError(challenge(`Settlement failed: ${words}`), {});
    const row = await ledger.paymentById(db, id);
    if (!row || !ledger.isOrderHold(row)) throw new Error(`x402 order hold ${id} is not in the ledger`);
    if (row.status === 'settled' || row.status === 'recovered') return { transaction: row.tx_hash };
    if (row.status !== 'verified' && row.status !== 'settling') {
      throw failed(`the hold was ${row.status}${row.error ? ` (${row.error})` : ''}; nothing was charged.`);
    }
    const d = decodePayment({ ...payment, ip: '', transport: 'internal' }, req);
    const a = d.authorization;
    if (a.nonce.toLowerCase() !== row.nonce || a.from.toLowerCase() !== row.payer) throw new Error(`x402 order hold ${id}: the stored payment is not the one claimed`);

    let from: ledger.PaymentStatus = 'verified';
    if (row.status === 'settling') {
      const done = await this.settlingElsewhere(row, failed).catch((err: unknown) => {
        if (err instanceof GatewayError) throw err;
        throw retryLater('the payment network cannot be reached');
      });
      if (done) return done;
      from = 'settling'; // interrupted before it signed: take it over
    }
    const now = clock.now();
    if (Math.floor(now / 1000) + SETTLE_MARGIN_SECONDS > row.valid_before) {
      await ledger.setStatus(db, id, [from], 'released', now, { error: 'the authorization expired before delivery' });
      throw failed('the authorization expired before the order was delivered; nothing was charged.');
    }
    await hooks.beforeSettle?.(id);
    if (!(await ledger.setStatus(db, id, [from], 'settling', clock.now()))) {
      const again = await ledger.paymentById(db, id);
      if (again?.status === 'settled' || again?.status === 'recovered') return { transaction: again.tx_hash };
      throw retryLater('another capture of this order is under way');
    }
    this.deps.inFlight.add(id);
    const started = performance.now();
    const trace: RpcTrace = {};
    let hash: Hex | undefined;
    const onSigned = async (h: Hex) => {
      hash = h;
      await ledger.setTxHash(db, id, h, clock.now());
    };
    let result: SettleResponse;
    try {
      result = await rpcTrace.run(trace, () => settleContext.run({ onSigned, afterBroadcast: hooks.afterBroadcast }, () => this.deps.facilitator.settle(d.payload, req)));
    } catch (err) {
      result = { success: false, errorReason: Reason.simulationFailed, errorMessage: String(err), transaction: '', network: req.network, payer: a.from };
    }
    const settleMs = performance.now() - started;
    const transaction = result.transaction || hash || null;
    const value = BigInt(a.value);
    if (result.success) {
      await ledger.setStatus(db, id, ['settling', 'verified'], 'settled', clock.now(), { txHash: transaction, settleMs });
      views.settled(a.from, value);
      return { transaction };
    }
    const unresolved = hash !== undefined && (result.errorReason === Reason.settlementPending || trace.transportError !== undefined);
    if (unresolved) {
      await ledger.setStatus(db, id, ['settling'], 'settling', clock.now(), { error: Reason.settlementPending, settleMs });
      this.deps.scheduleRecheck();
      throw retryLater(`the transaction ${transaction} is not confirmed yet`);
    }
    // Another capture of the same hold (another process) may have used the authorization first.
    if (await this.used(row).catch(() => false)) {
      await ledger.setStatus(db, id, ['settling', 'verified'], 'settled', clock.now(), { settleMs });
      return { transaction: null };
    }
    views.released(a.from, value, true);
    if (trace.transportError !== undefined) {
      // Nothing reached the network: the hold waits for the next capture.
      await ledger.setStatus(db, id, ['settling'], 'verified', clock.now(), { error: Reason.unreachable });
      throw retryLater('the payment network cannot be reached');
    }
    const reason = result.errorReason ?? Reason.simulationFailed;
    await ledger.setStatus(db, id, ['settling'], 'failed', clock.now(), { error: result.errorMessage ? `${reason}: ${result.errorMessage.slice(0, 300)}` : reason, settleMs });
    log.warn({ payment: id, order: row.tool.slice(ledger.ORDER_HOLD_PREFIX.length), reason }, 'x402 order settlement failed');
    throw failed(`${describeReason(reason)}; nothing was charged.`);
  }

  /**
   * A row found 'settling' that is not ours: settled → its answer; a transaction sent and not mined, or a
   * capture that may still sign → 503; reverted → 402; interrupted before signing (stale) → undefined (take over).
   */
  private async settlingElsewhere(row: ledger.PaymentRow, failed: (words: string) => GatewayError): Promise<{ transaction: string | null } | undefined> {
    const { db, clock } = this.deps;
    if (await this.used(row)) {
      await ledger.setStatus(db, row.id, ['settling'], 'settled', clock.now(), { txHash: row.tx_hash });
      return { transaction: row.tx_hash };
    }
    if (row.tx_hash) {
      const receipt = await this.deps.client.getTransactionReceipt({ hash: row.tx_hash as Hex }).catch(() => null);
      if (receipt && receipt.status !== 'success') {
        await ledger.setStatus(db, row.id, ['settling'], 'failed', clock.now(), { error: 'the settlement transaction reverted' });
        throw failed('the settlement transaction reverted; nothing was charged.');
      }
      throw retryLater(`the transaction ${row.tx_hash} is not confirmed yet`);
    }
    if (clock.now() - row.updated_at < ledger.ORDER_SETTLING_STALE_MS) throw retryLater('another capture of this order is under way');
    return undefined;
  }

  private async used(row: ledger.PaymentRow): Promise<boolean> {
    return (await this.deps.client.readContract({
      address: getAddress(row.asset),
      abi: eip3009ABI,
      functionName: 'authorizationState',
      args: [getAddress(row.payer), row.nonce as Hex],
    })) as boolean;
  }
}
