// Start-up recovery: rows a crash left in 'verified' or 'settling' are checked on chain and closed, so a
// payment is never settled twice and never lost.
// - a hash was recorded (it is written before broadcast) and its receipt shows the transfer → recovered;
// - the token says the authorization is used (authorizationState) → recovered: the funds reached payTo,
//   whoever submitted it (its transaction is looked up in the AuthorizationUsed logs when the node allows);
// - unused, and no transaction of ours can still land (none was signed, it reverted, or validBefore passed)
//   → abandoned (or failed if our transaction reverted): the caller never got the result and pays nothing;
// - otherwise (a signed transaction might still be mined) the row stays open and is looked at again later.
// Order holds (tool `order:<id>`, issue 23) wait for their delivery, across restarts: left alone while their
// authorization is valid; once it expired unsettled they are 'released'; one whose capture was interrupted before
// it signed goes back to 'verified' so the capture can run again.
import { eip3009ABI } from '@x402/evm';
import { getAddress, parseAbiItem, parseEventLogs, type Hex, type TransactionReceipt } from 'viem';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../log.js';
import type { Db } from '../../store/db.js';
import * as ledger from '../../store/x402-ledger.js';
import type { ChainClient } from './chain.js';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const AUTHORIZATION_USED = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');
/** How far back the AuthorizationUsed lookup reaches (public RPCs cap eth_getLogs ranges). */
const LOG_WINDOW_BLOCKS = 5_000n;

export interface RecoverySummary {
  checked: number;
  recovered: number;
  abandoned: number;
  /** Order holds whose authorization expired unsettled. */
  released: number;
  failed: number;
  open: number;
}

function transferred(receipt: TransactionReceipt, row: ledger.PaymentRow): boolean {
  const logs = parseEventLogs({ abi: [TRANSFER], logs: receipt.logs.filter((l) => l.address.toLowerCase() === row.asset) });
  return logs.some((l) => l.args.from.toLowerCase() === row.payer && l.args.to.toLowerCase() === row.pay_to && l.args.value === BigInt(row.amount));
}

export class Recovery {
  private timer?: NodeJS.Timeout;
  private running?: Promise<RecoverySummary>;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly client: ChainClient,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Payments this process is still working on: never recovered from under a live call. */
    private readonly inFlight: ReadonlySet<string>,
    private readonly recheckMs = 30_000,
  ) {}

  /** Closes what can be closed now; concurrent calls share one run. */
  recover(): Promise<RecoverySummary> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Looks at open rows again after a while (unresolved settlements), until none is left. */
  scheduleRecheck(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.recover().catch((err: unknown) => this.log.warn({ err }, 'x402 recovery failed'));
    }, this.recheckMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async run(): Promise<RecoverySummary> {
    const now = this.clock.now();
    const rows = (await ledger.openPayments(this.db)).filter((r) => !this.inFlight.has(r.id) && !ledger.orderHoldWaiting(r, now));
    const s: RecoverySummary = { checked: rows.length, recovered: 0, abandoned: 0, released: 0, failed: 0, open: 0 };
    for (const row of rows) {
      try {
        const outcome = await this.settleRow(row);
        s[outcome]++;
      } catch (err) {
        s.open++;
        this.log.warn({ err, payment: row.id }, 'x402 recovery could not reach the chain; the payment stays open');
      }
    }
    if (rows.length) this.log.info(s, 'x402 ledger recovery');
    if (s.open) this.scheduleRecheck();
    return s;
  }

  private async settleRow(row: ledger.PaymentRow): Promise<'recovered' | 'abandoned' | 'released' | 'failed' | 'open'> {
    const { client } = this;
    const now = this.clock.now();
    let receipt: TransactionReceipt | null = null;
    if (row.tx_hash) {
      receipt = await client.getTransactionReceipt({ hash: row.tx_hash as Hex }).catch((err: unknown) => {
        if ((err as Error).name === 'TransactionReceiptNotFoundError') return null;
        throw err;
      });
      if (receipt?.status === 'success' && transferred(receipt, row)) {
        await ledger.setStatus(this.db, row.id, ['verified', 'settling'], 'recovered', now, { txHash: row.tx_hash });
        return 'recovered';
      }
    }
    const used = (await client.readContract({
      address: getAddress(row.asset),
      abi: eip3009ABI,
      functionName: 'authorizationState',
      args: [getAddress(row.payer), row.nonce as Hex],
    })) as boolean;
    if (used) {
      const tx = await this.findUse(row).catch(() => undefined);
      await ledger.setStatus(this.db, row.id, ['verified', 'settling'], 'recovered', now, { txHash: tx ?? null });
      return 'recovered';
    }
    if (receipt) {
      await ledger.setStatus(this.db, row.id, ['verified', 'settling'], 'failed', now, { error: 'recovery: the settlement transaction reverted' });
      return 'failed';
    }
    const expired = Math.floor(now / 1000) >= row.valid_before;
    if (ledger.isOrderHold(row)) {
      if (expired) {
        await ledger.setStatus(this.db, row.id, ['verified', 'settling'], 'released', now, { error: 'recovery: the order hold expired before delivery; not charged' });
        this.log.info({ payment: row.id, order: row.tool }, 'x402 order hold released by recovery: its authorization expired unsettled');
        return 'released';
      }
      // Still valid and 'settling': a capture signed and not mined stays open; one interrupted before it signed
      // (stale) waits for its capture again.
      if (!row.tx_hash && now - row.updated_at >= ledger.ORDER_SETTLING_STALE_MS) {
        await ledger.setStatus(this.db, row.id, ['settling'], 'verified', now, { error: 'recovery: capture interrupted before signing' });
      }
      return 'open';
    }
    if (!row.tx_hash || expired) {
      await ledger.setStatus(this.db, row.id, ['verified', 'settling'], 'abandoned', now, {
        error: row.tx_hash ? 'recovery: not settled before validBefore' : 'recovery: interrupted before settlement; not charged',
      });
      this.log.warn({ payment: row.id, payer: row.payer }, 'x402 payment abandoned by recovery: not settled, not charged');
      return 'abandoned';
    }
    return 'open';
  }

  /** The transaction that used the authorization, from the token's AuthorizationUsed log (best effort). */
  private async findUse(row: ledger.PaymentRow): Promise<string | undefined> {
    const latest = await this.client.getBlockNumber();
    const logs = await this.client.getLogs({
      address: getAddress(row.asset),
      event: AUTHORIZATION_USED,
      args: { authorizer: getAddress(row.payer), nonce: row.nonce as Hex },
      fromBlock: latest > LOG_WINDOW_BLOCKS ? latest - LOG_WINDOW_BLOCKS : 0n,
      toBlock: latest,
    });
    return logs[0]?.transactionHash ?? undefined;
  }
}
