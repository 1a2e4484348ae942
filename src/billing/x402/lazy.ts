// The x402 method without its weight at start-up: @x402/evm and viem load on the first request that carries
// a payment (or when recovery finds payments a crash left open), not for every gateway that starts. They are
// optional packages (src/engines.ts): without them a payment answers 503 engine_not_installed, and nothing is
// verified or settled; the 402 challenges, which need neither, are offered as ever.
import type { Clock } from '../../clock.js';
import { installCommand, missingEngine, requireEngine } from '../../engines.js';
import type { Logger } from '../../log.js';
import type { Db } from '../../store/db.js';
import { openPayments, orderHoldWaiting } from '../../store/x402-ledger.js';
import type { PaymentMethod } from '../charge.js';
import type { PaymentSettings } from '../challenge.js';
import type { ServiceWallet } from '../wallet.js';
import type { RecoverySummary, X402, X402Hooks, X402OrderPayments } from './index.js';

export interface LazyX402 {
  method: PaymentMethod;
  /** The order payments behind the x402 order rail (src/commerce/x402-rail.ts); loads x402 on first use. */
  orders(): Promise<X402OrderPayments>;
  recover(): Promise<RecoverySummary>;
  hooks: X402Hooks;
  close(): void;
}

export function createLazyX402(o: { db: Db; clock: Clock; log: Logger; wallet: ServiceWallet; settings: PaymentSettings; baseUrl: () => string }): LazyX402 {
  const hooks: X402Hooks = {};
  let real: Promise<X402> | undefined;
  // An operator who configured a wallet means to take x402 payments: said once at start, not at the first payment.
  const missing = o.wallet.source === 'env' ? missingEngine('x402') : [];
  if (missing.length) o.log.warn({ missing, install: installCommand('x402') }, 'X402_PRIVATE_KEY is set, but x402 payments need optional packages this installation does not include; they answer 503 until installed');
  const load = () => {
    if (!real) requireEngine('x402');
    return (real ??= Promise.all([import('./index.js'), o.wallet.account()]).then(([m, account]) =>
      m.createX402({ db: o.db, clock: o.clock, log: o.log, account, settings: o.settings, baseUrl: o.baseUrl, hooks }),
    ));
  };
  return {
    hooks,
    method: {
      begin: async (tool, caller, meta, settings) => {
        if (!caller.credentials.paymentSignature && !caller.credentials.xPayment) return null;
        return (await load()).method.begin(tool, caller, meta, settings);
      },
    },
    orders: async () => (await load()).orders,
    recover: async () => {
      // Order holds waiting for delivery are not recovery's business: they alone do not load x402.
      const now = o.clock.now();
      if ((await openPayments(o.db)).every((r) => orderHoldWaiting(r, now))) return { checked: 0, recovered: 0, abandoned: 0, released: 0, failed: 0, open: 0 };
      return (await load()).recover();
    },
    close: () => void real?.then((x) => x.close()),
  };
}
