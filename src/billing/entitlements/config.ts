// Settings of store entitlements, parsed with the rest of the environment by src/config.ts: which store
// products grant what (a key tier or credits), and how App Store signed transactions are trusted.
import fs from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';

/** What one store product grants: an API key tier, or credits (1 credit = US$0.000001). */
export type ProductGrant = { tier: 'pro' | 'enterprise' } | { credits: number };

export interface AppStoreSettings {
  /** Trusted root certificates in PEM (Apple Root CA - G3 in production). */
  rootCerts: string[];
  bundleId: string;
  environment: AppStoreEnvironment;
}

export type AppStoreEnvironment = 'Production' | 'Sandbox';

export interface EntitlementSettings {
  products: Record<string, ProductGrant>;
  /** Null when the App Store is not configured: the entitlement route then answers 503. */
  appstore: AppStoreSettings | null;
}

/** Largest credit grant one product may carry (10^12 credits = US$1,000,000). */
export const MAX_PRODUCT_CREDITS = 1_000_000_000_000;

const ProductGrantSchema = z.union([
  z.strictObject({ tier: z.enum(['pro', 'enterprise']) }),
  z.strictObject({ credits: z.number().int().positive().max(MAX_PRODUCT_CREDITS) }),
]);
const ProductMap = z.record(z.string().min(1).max(200), ProductGrantSchema);

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Reads PEM text given inline or as a file path; every certificate in it must parse. */
function readRootCerts(value: string): string[] {
  const text = value.includes('-----BEGIN') ? value : fs.readFileSync(value, 'utf8');
  const pems = text.match(PEM_CERT) ?? [];
  if (pems.length === 0) throw new Error('holds no PEM certificate (give the PEM text or a path to a .pem file)');
  for (const pem of pems) new X509Certificate(pem);
  return pems;
}

/** Environment fields, spread into the gateway's env schema. */
export const ENTITLEMENT_ENV = {
  GATEWAY_ENTITLEMENT_PRODUCTS: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON, e.g. {"com.example.pro.monthly": {"tier": "pro"}, "com.example.credits.1000": {"credits": 1000000}}' });
        return z.NEVER;
      }
      const parsed = ProductMap.safeParse(json);
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        const where = i.path.length ? ` at ${i.path.map((p) => JSON.stringify(String(p))).join('.')}` : '';
        ctx.addIssue({
          code: 'custom',
          message: `must map product ids to {"tier": "pro"|"enterprise"} or {"credits": <positive integer>}${where}: ${i.message}`,
        });
        return z.NEVER;
      }
      return parsed.data as Record<string, ProductGrant>;
    }),
  GATEWAY_APPSTORE_ROOT_CERT: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return [];
      try {
        return readRootCerts(value);
      } catch (err) {
        const msg = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
        ctx.addIssue({ code: 'custom', message: `must be a PEM root certificate or a path to one: ${msg}` });
        return z.NEVER;
      }
    }),
  GATEWAY_APPSTORE_BUNDLE_ID: z
    .string()
    .max(155)
    .regex(/^[A-Za-z0-9][A-Za-z0-9.-]*$/, 'must be an app bundle id such as com.example.app')
    .optional(),
  GATEWAY_APPSTORE_ENVIRONMENT: z.enum(['Production', 'Sandbox'], 'must be Production or Sandbox').default('Production'),
};

type EntitlementEnv = z.output<z.ZodObject<typeof ENTITLEMENT_ENV>>;

/** The settings from the parsed env; `fail` builds the config error for a cross-field mistake. */
export function entitlementSettings(e: EntitlementEnv, fail: new (message: string) => Error): EntitlementSettings {
  const hasRoot = e.GATEWAY_APPSTORE_ROOT_CERT.length > 0;
  const hasBundle = e.GATEWAY_APPSTORE_BUNDLE_ID !== undefined;
  if (hasRoot !== hasBundle) {
    throw new fail(
      'Invalid configuration:\n  GATEWAY_APPSTORE_ROOT_CERT and GATEWAY_APPSTORE_BUNDLE_ID must be set together: App Store entitlements need the trusted root and the app bundle id',
    );
  }
  return {
    products: e.GATEWAY_ENTITLEMENT_PRODUCTS,
    appstore: hasRoot
      ? { rootCerts: e.GATEWAY_APPSTORE_ROOT_CERT, bundleId: e.GATEWAY_APPSTORE_BUNDLE_ID!, environment: e.GATEWAY_APPSTORE_ENVIRONMENT }
      : null,
  };
}
