// Settings of the commercial group at {api_url} (issue 23), parsed with the rest of the environment by
// src/config.ts: its listener, its price table, signup limits, order rails and the dev-task acceptance window.
import fs from 'node:fs';
import { z } from 'zod';
import { priceTable, type PriceTable } from './prices.js';

export interface CommercialSettings {
  /** The second listener: port (0 picks a free one), host, and the public base used in links. */
  port: number;
  host: string;
  baseUrl: string;
  /** True when GATEWAY_API_BASE_URL was not set and the base follows the bound port. */
  baseUrlFromListen: boolean;
  prices: PriceTable;
  /** Accounts one client address may open per 24 hours. */
  signupsPerClientPerDay: number;
  /** A delivered dev task not accepted (or sent back) within this long is accepted, and captured. The default (5 days)
   * keeps a card authorisation, which lapses after 7 days, capturable. */
  devAutoAcceptMs: number;
  /** How many times a content order asks the model before it fails (a reply that misses the deliverable's shape). */
  contentAttempts: number;
  /** The validity an x402 authorization must have for an order: the time it may take to deliver. */
  x402WindowSeconds: number;
  /** The deep SEO audit's Lighthouse: the Chromium it drives (null: none, or turned off), its time and download budget. */
  lighthouse: { chromiumPath: string | null; timeoutMs: number; maxBytes: number };
  /** Cards through Stripe, when STRIPE_SECRET_KEY is set; `apiBase` points the client elsewhere (tests, proxies). */
  stripe?: { secretKey: string; apiBase?: URL };
}

export const COMMERCIAL_ENV = {
  GATEWAY_API_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  GATEWAY_API_HOST: z.string().min(1).optional(),
  GATEWAY_API_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  GATEWAY_COMMERCIAL_PRICES: z
    .string()
    .optional()
    .transform((text, ctx) => {
      try {
        return priceTable(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY: z.coerce.number().int().positive().default(5),
  GATEWAY_DEV_TASK_AUTO_ACCEPT_DAYS: z.coerce.number().int().min(1).max(90).default(5),
  GATEWAY_CONTENT_ATTEMPTS: z.coerce.number().int().min(1).max(5).default(3),
  GATEWAY_ORDER_X402_WINDOW_SECONDS: z.coerce.number().int().min(60).max(7 * 24 * 3600).default(3600),
  GATEWAY_CHROMIUM_PATH: z.string().refine((p) => p === 'off' || fs.existsSync(p), 'no such file (give Chromium’s path, or `off`)').optional(),
  CHROME_PATH: z.string().optional(),
  GATEWAY_LIGHTHOUSE_TIMEOUT_SECONDS: z.coerce.number().int().min(15).max(600).default(60),
  GATEWAY_LIGHTHOUSE_MAX_BYTES: z.coerce.number().int().positive().default(30 * 1024 * 1024),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret or restricted key (sk_test_…, sk_live_…)').optional(),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
};

type CommercialEnv = z.output<z.ZodObject<typeof COMMERCIAL_ENV>> & { PORT: number; HOST: string };

/** The default port of {api_url}; when the gateway's own PORT is 0 (tests, several instances), 0 too. */
export const DEFAULT_API_PORT = 8788;

/** GATEWAY_CHROMIUM_PATH (`off` turns Lighthouse off), else CHROME_PATH, else Debian's Chromium when installed. */
function chromiumPath(e: CommercialEnv): string | null {
  if (e.GATEWAY_CHROMIUM_PATH === 'off') return null;
  const path = e.GATEWAY_CHROMIUM_PATH ?? e.CHROME_PATH ?? '/usr/bin/chromium';
  return fs.existsSync(path) ? path : null;
}

export function commercialSettings(e: CommercialEnv): CommercialSettings {
  const port = e.GATEWAY_API_PORT ?? (e.PORT === 0 ? 0 : DEFAULT_API_PORT);
  const host = e.GATEWAY_API_HOST ?? e.HOST;
  const hostForUrl = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    port,
    host,
    baseUrl: (e.GATEWAY_API_BASE_URL ?? `http://${hostForUrl.includes(':') ? `[${hostForUrl}]` : hostForUrl}:${port}`).replace(/\/+$/, ''),
    baseUrlFromListen: !e.GATEWAY_API_BASE_URL,
    prices: e.GATEWAY_COMMERCIAL_PRICES,
    signupsPerClientPerDay: e.GATEWAY_SIGNUPS_PER_CLIENT_PER_DAY,
    devAutoAcceptMs: e.GATEWAY_DEV_TASK_AUTO_ACCEPT_DAYS * 24 * 3600 * 1000,
    contentAttempts: e.GATEWAY_CONTENT_ATTEMPTS,
    x402WindowSeconds: e.GATEWAY_ORDER_X402_WINDOW_SECONDS,
    lighthouse: { chromiumPath: chromiumPath(e), timeoutMs: e.GATEWAY_LIGHTHOUSE_TIMEOUT_SECONDS * 1000, maxBytes: e.GATEWAY_LIGHTHOUSE_MAX_BYTES },
    stripe: e.STRIPE_SECRET_KEY ? { secretKey: e.STRIPE_SECRET_KEY, apiBase: e.STRIPE_API_BASE ? new URL(e.STRIPE_API_BASE) : undefined } : undefined,
  };
}
