// Builds the infrastructure handlers reach through ctx.services: auth helpers, egress, billing, payments.
import path from 'node:path';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { AgentResolver } from './auth/agent-resolver.js';
import { makeClientKey } from './auth/client-key.js';
import { Billing } from './billing/charge.js';
import { CreditsPayment } from './billing/credits.js';
import type { PaymentSettings } from './billing/challenge.js';
import { KeyService } from './billing/keys.js';
import { Quota } from './billing/quota.js';
import { UsageRecorder } from './billing/usage-recorder.js';
import { loadOrCreateWallet, type ServiceWallet } from './billing/wallet.js';
import { createLazyX402, type LazyX402 } from './billing/x402/lazy.js';
import { createEgress } from './egress/index.js';
import { Bus } from './bus.js';
import { Accounts } from './commerce/accounts.js';
import type { CardRail } from './commerce/card-rail.js';
import { orderPath } from './commerce/index.js';
import { CreditsRail } from './commerce/credits-rail.js';
import type { Rail, RailName } from './commerce/rails.js';
import { X402Rail } from './commerce/x402-rail.js';
import { Scheduler } from './scheduler/scheduler.js';
import { FsBlobStore } from './blobs/blob-store.js';
import type { Registry } from './registry/registry.js';
import type { AgentRef, RestBinding, Services, WorkerContext } from './registry/types.js';
import type { Db } from './store/db.js';
import { installPepper } from './store/settings.js';

export interface Infrastructure {
  services: Services;
  resolver: AgentResolver;
  billing: Billing;
  usage: UsageRecorder;
  wallet: ServiceWallet;
  x402: LazyX402;
  close(): Promise<void>;
}

export async function buildInfrastructure(o: {
  db: Db;
  config: Config;
  clock: Clock;
  log: Logger;
  lookupAgent: (secretHash: string) => Promise<AgentRef | undefined>;
  registry: () => Registry;
  /** The REST route tables, as capabilities may read them. */
  restBindings: readonly RestBinding[];
}): Promise<Infrastructure> {
  const { db, config, clock, log } = o;
  // Made by prepareDatabase already (src/store/open.ts), so usually a read.
  const clientKey = makeClientKey(await installPepper(db));
  const egress = createEgress({ allow: config.egressAllow });
  const resolver = new AgentResolver(o.lookupAgent, () => clock.now(), config.caches.credentialEntries);
  const wallet = await loadOrCreateWallet(config.dataDir, config.x402.privateKey);
  if (wallet.source === 'generated') log.info({ address: wallet.address }, 'generated a service wallet; fund it with gas to settle x402 payments');
  const payments: PaymentSettings = { ...config.x402, payTo: config.x402.payTo ?? wallet.address };
  const keys = new KeyService(db, () => clock.now(), config.caches.credentialEntries);
  const billing = new Billing(keys, new Quota(db, clock), () => payments, () => config.baseUrl, clock);
  // Agent credits pay when an authenticated agent sent no API key and no x402 payment header.
  billing.addMethod(new CreditsPayment(db, clock, () => config.baseUrl));
  const x402 = createLazyX402({ db, clock, log, wallet, settings: payments, baseUrl: () => config.baseUrl });
  billing.addMethod(x402.method);
  await x402.recover().catch((err: unknown) => log.warn({ err }, 'x402 ledger recovery failed; open payments stay open'));
  const usage = new UsageRecorder(db, clock);
  // The Stripe SDK (a tenth of a second to load) only where cards are configured.
  const card: CardRail | undefined = config.commercial.stripe ? new (await import('./commerce/card-rail.js')).CardRail(config.commercial.stripe, log) : undefined;
  // The rails orders are paid through: the prepaid balance, x402 (verified when placed, settled on delivery), cards.
  const orderRails = (): Map<RailName, Rail> => {
    const rails = new Map<RailName, Rail>([['credits', new CreditsRail(db, clock)]]);
    const c = config.commercial;
    rails.set('x402', new X402Rail({ settings: payments, windowSeconds: c.x402WindowSeconds, resourceUrl: (s) => `${c.baseUrl}${orderPath(s)}`, payments: () => x402.orders(), clock }));
    if (card) rails.set('card', card);
    return rails;
  };
  const services: Services = {
    clientKey,
    forgetAgent: (id) => {
      resolver.forget(id);
      keys.forgetAgent(id);
    },
    resolveAgent: (secret) => resolver.resolve(secret),
    listTools: () => o.registry().list(),
    restBindings: o.restBindings,
    egress,
    billing,
    keys,
    payments,
    bus: new Bus(),
    blobs: new FsBlobStore(path.join(config.dataDir, 'blobs'), config.caches.blobBytes),
    scheduler: undefined as unknown as Scheduler<WorkerContext>,
    commerce: { accounts: new Accounts(db, () => clock.now(), config.caches.credentialEntries), rails: orderRails() },
  };
  // The scheduler runs work with the same services it is part of.
  services.scheduler = new Scheduler<WorkerContext>({ db, clock, config, log, services });
  return {
    services,
    resolver,
    billing,
    usage,
    wallet,
    x402,
    close: async () => {
      x402.close();
      await usage.close();
      await egress.close();
    },
  };
}
