// x402 pay-per-call with a local facilitator: the gateway verifies payments and settles them on chain from
// its own wallet (@x402/core x402Facilitator + @x402/evm exact scheme on a viem client of the service wallet).
import { x402Facilitator } from '@x402/core/facilitator';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../log.js';
import type { Db } from '../../store/db.js';
import type { PaymentSettings } from '../challenge.js';
import { createChainClient, createServiceSigner } from './chain.js';
import { X402Method, type X402Hooks } from './method.js';
import { X402OrderPayments } from './orders.js';
import { PayerViews } from './payer-view.js';
import { Recovery, type RecoverySummary } from './recovery.js';
import { PaymentVerifier } from './verifier.js';

export type { X402Hooks } from './method.js';
export type { RecoverySummary } from './recovery.js';
export type { X402OrderPayments } from './orders.js';

export interface X402 {
  method: X402Method;
  /** Orders (issue 23): verified at placement, settled on delivery; the x402 rail (src/commerce/x402-rail.ts) wraps it. */
  orders: X402OrderPayments;
  /** Closes ledger rows a crash left open, checking the chain; called at start-up. */
  recover(): Promise<RecoverySummary>;
  /** Test hooks (crash simulation). */
  hooks: X402Hooks;
  close(): void;
}

/** How long start-up waits for recovery before going on (the rest finishes in the background). */
const STARTUP_RECOVERY_MS = 15_000;

export function createX402(o: { db: Db; clock: Clock; log: Logger; account: PrivateKeyAccount; settings: PaymentSettings; baseUrl: () => string; hooks?: X402Hooks }): X402 {
  const s = o.settings;
  const client = createChainClient(o.account, s);
  const { signer } = createServiceSigner(client, s.confirmationTimeoutSeconds * 1000);
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: s.network as `${string}:${string}` });
  const views = new PayerViews(s.verifyCacheSeconds * 1000);
  const inFlight = new Set<string>();
  const recovery = new Recovery(o.db, client, o.clock, o.log, inFlight);
  const hooks: X402Hooks = o.hooks ?? {};
  const verifier = new PaymentVerifier(facilitator, client, views, s.chainId);
  const method = new X402Method({
    db: o.db,
    clock: o.clock,
    log: o.log,
    facilitator,
    verifier,
    views,
    hooks,
    baseUrl: o.baseUrl,
    scheduleRecheck: () => recovery.scheduleRecheck(),
    inFlight,
  });
  const orders = new X402OrderPayments({
    db: o.db,
    clock: o.clock,
    log: o.log,
    facilitator,
    verifier,
    views,
    client,
    hooks,
    scheduleRecheck: () => recovery.scheduleRecheck(),
    inFlight,
  });
  return {
    method,
    orders,
    hooks,
    recover: async () => {
      let timer: NodeJS.Timeout | undefined;
      const cap = new Promise<RecoverySummary>((resolve) => {
        timer = setTimeout(() => resolve({ checked: 0, recovered: 0, abandoned: 0, released: 0, failed: 0, open: -1 }), STARTUP_RECOVERY_MS);
        timer.unref();
      });
      try {
        return await Promise.race([recovery.recover(), cap]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => recovery.close(),
  };
}
