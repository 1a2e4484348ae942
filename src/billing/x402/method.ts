// x402 as a payment method of the billing step: `begin` decodes, verifies and claims the payment before the
// tool runs; `commit` settles it on chain from the service wallet and adds the receipt; `release` (the tool
// failed) settles nothing. Every step is written to the ledger first, so a crash anywhere is recoverable.
import { performance } from 'node:perf_hooks';
import type { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { Hex } from 'viem';
import { newId } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../log.js';
import type { CallMeta, Caller, Charge, PricedTool } from '../../registry/call-types.js';
import type { Db } from '../../store/db.js';
import * as ledger from '../../store/x402-ledger.js';
import { paymentRequired, requirementsFor, resourceUrl, type PaymentSettings } from '../challenge.js';
import type { PaymentMethod } from '../charge.js';
import { rpcTrace, settleContext, type RpcTrace } from './chain.js';
import { checkWindow, decodePayment, type DecodedPayment } from './payload.js';
import type { PayerViews } from './payer-view.js';
import { describeReason, PaymentRejected, Reason } from './reasons.js';
import { paymentError, RECEIPT_META, receiptHeader, type Receipt } from './receipts.js';
import type { PaymentVerifier, VerifyPath } from './verifier.js';

/** Test hooks: let a test stop the gateway at the two points a crash matters. */
export interface X402Hooks {
  /** The tool has run and the payment is claimed ('verified'); settlement has not started. */
  beforeSettle?: (paymentId: string) => Promise<void>;
  /** The settlement transaction is broadcast and its hash recorded ('settling'); no receipt yet. */
  afterBroadcast?: (hash: Hex) => Promise<void>;
}

export interface X402MethodDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  facilitator: x402Facilitator;
  verifier: PaymentVerifier;
  views: PayerViews;
  hooks: X402Hooks;
  baseUrl: () => string;
  /** Asks recovery to look at unresolved rows again later. */
  scheduleRecheck: () => void;
  /** Claimed payments whose call is still running here (recovery leaves them alone). */
  inFlight: Set<string>;
}

interface Claimed {
  id: string;
  d: DecodedPayment;
  req: PaymentRequirements;
  tool: PricedTool;
  settings: PaymentSettings;
  url: string;
  value: bigint;
  timing: string;
  verifyMs: number;
}

const ms = (n: number): string => n.toFixed(2);
const toSafeNumber = (n: bigint): number => (n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n));

export class X402Method implements PaymentMethod {
  constructor(private readonly deps: X402MethodDeps) {}

  async begin(tool: PricedTool, caller: Caller, meta: CallMeta, settings: PaymentSettings): Promise<Charge | null> {
    const c = caller.credentials;
    if (c.paymentSignature === undefined && c.xPayment === undefined) return null;
    const started = performance.now();
    const { db, clock } = this.deps;
    const req = requirementsFor(tool, settings);
    const url = resourceUrl(tool, c.transport, this.deps.baseUrl());
    const reject = (e: PaymentRejected) => paymentError(paymentRequired(tool, settings, url, `Payment rejected: ${e.message}`), meta.headers);
    const now = clock.now();
    let d: DecodedPayment;
    try {
      d = decodePayment(c, req);
      checkWindow(d.authorization, now);
    } catch (err) {
      if (err instanceof PaymentRejected) throw reject(err);
      throw err;
    }
    const a = d.authorization;
    const id = newId('pay');
    // Claim first: the UNIQUE key lets exactly one request use an authorization. The insert runs on the
    // database thread while this one checks the signature; a payment that then fails verification is removed.
    const claim = ledger.claim(db, {
      id,
      network: req.network,
      asset: req.asset,
      payer: a.from,
      nonce: a.nonce,
      payTo: req.payTo,
      amount: a.value,
      tool: tool.name,
      transport: c.transport,
      x402Version: d.version,
      validBefore: toSafeNumber(BigInt(a.validBefore)),
      now,
    });
    claim.catch(() => undefined); // awaited below; this only keeps an early failure from counting as unhandled
    const ecdsa = await this.deps.verifier.signedByPayer(d, req);
    if (!(await claim)) throw reject(new PaymentRejected(Reason.nonceUsed, undefined, a.from));
    this.deps.inFlight.add(id);
    let path: VerifyPath;
    try {
      path = await this.deps.verifier.verify(d, req, now, ecdsa);
    } catch (err) {
      this.deps.inFlight.delete(id);
      await ledger.discard(db, id);
      if (err instanceof PaymentRejected) throw reject(err);
      throw err;
    }
    const verifyMs = performance.now() - started;
    const timing = `x402-verify;dur=${ms(verifyMs)};desc="${path}"`;
    meta.headers['Server-Timing'] = timing;
    const p: Claimed = { id, d, req, tool, settings, url, value: BigInt(a.value), timing, verifyMs };
    const done = () => void this.deps.inFlight.delete(id);
    return { commit: (m) => this.settle(p, m).finally(done), release: () => this.release(p).finally(done) };
  }

  private async settle(p: Claimed, meta: CallMeta): Promise<void> {
    const { db, clock, views, hooks, log } = this.deps;
    const payer = p.d.authorization.from;
    await hooks.beforeSettle?.(p.id);
    if (!(await ledger.setStatus(db, p.id, ['verified'], 'settling', clock.now(), { verifyMs: p.verifyMs }))) {
      views.released(payer, p.value);
      throw paymentError(paymentRequired(p.tool, p.settings, p.url, 'Settlement failed: the payment was closed while the call ran; nothing was charged.'), meta.headers);
    }
    const started = performance.now();
    const trace: RpcTrace = {};
    let hash: Hex | undefined;
    const onSigned = async (h: Hex) => {
      hash = h;
      await ledger.setTxHash(db, p.id, h, clock.now());
    };
    let result: SettleResponse;
    try {
      result = await rpcTrace.run(trace, () =>
        settleContext.run({ onSigned, afterBroadcast: hooks.afterBroadcast }, () => this.deps.facilitator.settle(p.d.payload, p.req)),
      );
    } catch (err) {
      result = { success: false, errorReason: Reason.simulationFailed, errorMessage: String(err), transaction: '', network: p.req.network, payer };
    }
    const settleMs = performance.now() - started;
    const transaction = result.transaction || hash || '';
    if (result.success) {
      await ledger.setStatus(db, p.id, ['settling'], 'settled', clock.now(), { txHash: transaction, settleMs });
      views.settled(payer, p.value);
      const receipt: Receipt = { success: true, transaction, network: p.d.networkLabel, payer };
      Object.assign(meta.headers, receiptHeader(p.d, receipt), { 'Server-Timing': `${p.timing}, x402-settle;dur=${ms(settleMs)}` });
      meta.meta[RECEIPT_META] = receipt;
      return;
    }
    // A transaction that may have reached the network stays 'settling' until the chain says what became of it.
    const unresolved = hash !== undefined && (result.errorReason === Reason.settlementPending || trace.transportError !== undefined);
    const reason = unresolved
      ? Reason.settlementPending
      : trace.transportError !== undefined
        ? Reason.unreachable
        : (result.errorReason ?? Reason.simulationFailed);
    if (unresolved) {
      await ledger.setStatus(db, p.id, ['settling'], 'settling', clock.now(), { error: reason, settleMs });
      this.deps.scheduleRecheck();
    } else {
      await ledger.setStatus(db, p.id, ['settling'], 'failed', clock.now(), { error: result.errorMessage ? `${reason}: ${result.errorMessage.slice(0, 300)}` : reason, settleMs });
    }
    views.released(payer, p.value, true);
    log.warn({ payment: p.id, tool: p.tool.name, reason, transaction }, 'x402 settlement failed; the result is withheld');
    const outcome = unresolved
      ? `the transaction ${transaction} is not confirmed yet; if it confirms later the payment is kept in the ledger`
      : 'nothing was charged';
    const pr = paymentRequired(p.tool, p.settings, p.url, `Settlement failed (${describeReason(reason)}): the result is withheld and ${outcome}.`);
    const receipt: Receipt = { success: false, transaction, network: p.d.networkLabel, payer, errorReason: reason };
    throw paymentError(pr, { ...meta.headers, 'Server-Timing': `${p.timing}, x402-settle;dur=${ms(settleMs)}` }, { d: p.d, r: receipt });
  }

  private async release(p: Claimed): Promise<void> {
    this.deps.views.released(p.d.authorization.from, p.value);
    await ledger.setStatus(this.deps.db, p.id, ['verified'], 'released', this.deps.clock.now(), { verifyMs: p.verifyMs });
  }
}
