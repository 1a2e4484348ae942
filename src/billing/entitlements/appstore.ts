// App Store signed transactions (App Store Server API, JWSTransactionDecodedPayload): verify the JWS with its
// x5c chain up to a configured trusted root, then check the transaction against the gateway's settings.
// Signatures are checked by jose (ES256 with the leaf's key) and node:crypto's X509Certificate (issuer and
// signature of each certificate, validity dates against the gateway clock); nothing here does crypto by hand.
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { GatewayError } from '../../errors.js';
import type { AppStoreSettings, ProductGrant } from './config.js';
import { extensionOids } from './der.js';

/** The fixed path segment and ledger prefix of this store. */
export const APPSTORE = 'appstore';

/** Apple's marker extensions: App Store receipt signing (leaf) and the WWDR intermediate. */
export const APPLE_LEAF_OID = '1.2.840.113635.100.6.11.1';
export const APPLE_INTERMEDIATE_OID = '1.2.840.113635.100.6.2.1';

export type EntitlementReason =
  | 'malformed_transaction'
  | 'unsupported_algorithm'
  | 'bad_certificate_chain'
  | 'untrusted_root'
  | 'certificate_expired'
  | 'bad_signature'
  | 'wrong_bundle'
  | 'wrong_environment'
  | 'unknown_product'
  | 'expired'
  | 'revoked';

/** A refused transaction: 422 with a stable `reason`, pointing at body.signed_transaction. */
export function refused(reason: EntitlementReason, message: string): GatewayError {
  return new GatewayError('validation_error', message, {
    extra: { reason },
    detail: [{ loc: ['body', 'signed_transaction'], msg: message, type: reason }],
  });
}

const TRANSACTION_TYPES = ['Auto-Renewable Subscription', 'Non-Renewing Subscription', 'Non-Consumable', 'Consumable'] as const;

const TransactionPayload = z.looseObject({
  transactionId: z.string().min(1).max(64),
  originalTransactionId: z.string().min(1).max(64),
  bundleId: z.string().min(1).max(155),
  productId: z.string().min(1).max(200),
  type: z.enum(TRANSACTION_TYPES),
  environment: z.string().min(1).max(32),
  purchaseDate: z.number().int(),
  signedDate: z.number().int(),
  expiresDate: z.number().int().optional(),
  revocationDate: z.number().int().optional(),
  quantity: z.number().int().min(1).max(1000).optional(),
});

export type Transaction = z.output<typeof TransactionPayload>;

const rootCache = new Map<string, X509Certificate>();
function trustedRoots(pems: string[]): X509Certificate[] {
  return pems.map((pem) => {
    let cert = rootCache.get(pem);
    if (!cert) rootCache.set(pem, (cert = new X509Certificate(pem)));
    return cert;
  });
}

function validAt(cert: X509Certificate, now: number): boolean {
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  return Number.isFinite(from) && Number.isFinite(to) && from <= now && now <= to;
}

function parseChain(x5c: unknown): [X509Certificate, X509Certificate] {
  if (!Array.isArray(x5c) || x5c.length !== 3 || !x5c.every((c) => typeof c === 'string' && c.length < 16_384)) {
    throw refused('bad_certificate_chain', 'The JWS header must carry an x5c chain of three certificates (leaf, intermediate, root).');
  }
  try {
    return [new X509Certificate(Buffer.from(x5c[0], 'base64')), new X509Certificate(Buffer.from(x5c[1], 'base64'))];
  } catch {
    throw refused('bad_certificate_chain', 'A certificate in the x5c chain cannot be parsed.');
  }
}

function hasExtension(cert: X509Certificate, oid: string): boolean {
  try {
    return extensionOids(cert.raw).includes(oid);
  } catch {
    return false;
  }
}

/**
 * Checks the x5c chain: the leaf is issued and signed by the intermediate, the intermediate by one of the
 * trusted roots (the root the JWS itself carries is never trusted), each valid at `now`, with Apple's markers.
 * Returns the leaf certificate whose key signed the JWS.
 */
function verifyChain(x5c: unknown, roots: X509Certificate[], now: number): X509Certificate {
  const [leaf, intermediate] = parseChain(x5c);
  if (!intermediate.ca || leaf.ca) throw refused('bad_certificate_chain', 'The x5c chain is not a leaf certificate under a CA intermediate.');
  if (!leaf.checkIssued(intermediate) || !leaf.verify(intermediate.publicKey)) {
    throw refused('bad_certificate_chain', 'The leaf certificate is not signed by the intermediate of the x5c chain.');
  }
  const root = roots.find((r) => intermediate.checkIssued(r) && intermediate.verify(r.publicKey));
  if (!root) throw refused('untrusted_root', 'The certificate chain does not lead to the trusted App Store root certificate.');
  for (const [name, cert] of [['leaf', leaf], ['intermediate', intermediate], ['root', root]] as const) {
    if (!validAt(cert, now)) throw refused('certificate_expired', `The ${name} certificate of the chain is not valid at this time.`);
  }
  if (!hasExtension(leaf, APPLE_LEAF_OID) || !hasExtension(intermediate, APPLE_INTERMEDIATE_OID)) {
    throw refused('bad_certificate_chain', 'The certificates are not App Store transaction signing certificates.');
  }
  return leaf;
}

/** Verifies a signed transaction (compact JWS) and returns its payload; refuses with 422 and a reason. */
export async function verifySignedTransaction(jws: string, trust: { rootCerts: string[]; now: number }): Promise<Transaction> {
  // jose loads with the first purchase to verify, not at start-up.
  const { compactVerify, decodeProtectedHeader } = await import('jose');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    if (jws.split('.').length !== 3) throw new Error('not compact');
    header = decodeProtectedHeader(jws);
  } catch {
    throw refused('malformed_transaction', 'signed_transaction is not a compact JWS (header.payload.signature).');
  }
  if (header.alg !== 'ES256') throw refused('unsupported_algorithm', `The JWS must be signed with ES256, not ${String(header.alg)}.`);
  const leaf = verifyChain(header.x5c, trustedRoots(trust.rootCerts), trust.now);
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(jws, leaf.publicKey, { algorithms: ['ES256'] }));
  } catch {
    throw refused('bad_signature', 'The transaction signature does not match its payload and signing certificate.');
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    throw refused('malformed_transaction', 'The signed payload is not JSON.');
  }
  const parsed = TransactionPayload.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw refused('malformed_transaction', `The signed payload is not an App Store transaction (${i.path.join('.') || 'payload'}: ${i.message}).`);
  }
  return parsed.data;
}

/** What a verified transaction grants under the gateway's settings; refuses with 422 and a reason. */
export function checkTransaction(
  t: Transaction,
  s: { appstore: AppStoreSettings; products: Record<string, ProductGrant>; now: number },
): { grant: ProductGrant; expiresAt: number | null } {
  if (t.bundleId !== s.appstore.bundleId) {
    throw refused('wrong_bundle', `The transaction is for the app "${t.bundleId}", not this gateway's app.`);
  }
  if (t.environment !== s.appstore.environment) {
    throw refused('wrong_environment', `The transaction is from the ${t.environment} environment; this gateway accepts ${s.appstore.environment}.`);
  }
  if (t.revocationDate !== undefined) throw refused('revoked', 'The purchase was refunded or revoked.');
  const grant = Object.hasOwn(s.products, t.productId) ? s.products[t.productId] : undefined;
  if (!grant) throw refused('unknown_product', `The product "${t.productId}" grants nothing on this gateway.`);
  if (t.type === 'Auto-Renewable Subscription' && t.expiresDate === undefined) {
    throw refused('malformed_transaction', 'A subscription transaction must carry expiresDate.');
  }
  if (t.expiresDate !== undefined && t.expiresDate <= s.now) {
    throw refused('expired', `The subscription expired at ${new Date(t.expiresDate).toISOString()}.`);
  }
  if ('credits' in grant && t.type === 'Consumable' && (t.quantity ?? 1) > 1) {
    return { grant: { credits: grant.credits * t.quantity! }, expiresAt: t.expiresDate ?? null };
  }
  return { grant, expiresAt: t.expiresDate ?? null };
}
