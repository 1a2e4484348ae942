// The account's prepaid balance as a rail: a hold takes the price off the balance at once (never overdrawn), a
// capture records the charge and gives back what was held beyond it, a release gives it all back. Each step is
// one transaction keyed by the order, so a retry after a crash writes nothing twice.
import type { Clock } from '../clock.js';
import { GatewayError } from '../errors.js';
import { BatchError, type Db, type Queryable } from '../store/db.js';
import * as accounts from '../store/accounts.js';
import type { Hold, HoldRequest, PaymentChoice, Rail } from './rails.js';
import { microToUsd } from './prices.js';

export class CreditsRail implements Rail {
  readonly name = 'credits' as const;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  chosen(p: PaymentChoice): boolean {
    return !p.paymentSignature && !p.xPayment && !p.paymentMethod;
  }

  holdStatements(req: HoldRequest) {
    const statements = accounts.holdStatements({ accountId: req.accountId, amount: req.amount, reason: `hold:${req.service}`, reference: req.orderId, now: this.clock.now() });
    return { statements, hold: { rail: 'credits' as const, reference: req.orderId, amount: req.amount }, refused: () => this.refusal(req) };
  }

  async hold(req: HoldRequest): Promise<Hold> {
    const { statements, hold } = this.holdStatements(req);
    try {
      await this.db.batch(statements);
    } catch (err) {
      if (err instanceof BatchError && err.index === 0 && err.code === 'BATCH_NO_ROW') throw await this.refusal(req);
      throw err;
    }
    return hold;
  }

  private async refusal(req: HoldRequest): Promise<GatewayError> {
    const has = await accounts.balanceOf(this.db, req.accountId);
    return new GatewayError('payment_required', `The prepaid balance ($${microToUsd(has)}) does not cover this order ($${microToUsd(req.amount)}).`, {
      extra: { balance: has, required: req.amount },
    });
  }

  captureStatements(hold: Hold, amount: number, orderId: string) {
    return accounts.captureStatements(orderId, hold.amount, amount, this.clock.now());
  }

  async capture(hold: Hold, amount: number, orderId: string): Promise<{ reference: string }> {
    await this.db.batch(this.captureStatements(hold, amount, orderId));
    return { reference: orderId };
  }

  async release(hold: Hold, orderId: string): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      if ((await accounts.hasLedgerRow(tx, 'release', orderId)) || (await accounts.hasLedgerRow(tx, 'capture', orderId))) return;
      const accountId = await this.accountOf(tx, orderId);
      await accounts.addToBalance(tx, 'release', { accountId, amount: hold.amount, reason: 'release', reference: orderId, now });
    });
  }

  /** The account the hold was taken from (its ledger row: the order row may not exist yet). */
  private async accountOf(q: Queryable, orderId: string): Promise<string> {
    const row = await q.get<{ account_id: string }>("SELECT account_id FROM account_ledger WHERE reference = ? AND kind = 'hold'", [orderId]);
    if (!row) throw new Error(`no hold for order ${orderId}`);
    return row.account_id;
  }
}
