// A test App Store PKI: root → intermediate → leaf (EC P-256) made with openssl in a temp dir, carrying Apple's
// marker extensions, and helpers that sign JWSTransactionDecodedPayload transactions with the leaf key (ES256,
// x5c header with the three certificates as base64 DER), as the App Store Server API does.
import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID, X509Certificate, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompactSign } from 'jose';
import { APPLE_INTERMEDIATE_OID, APPLE_LEAF_OID } from '../../src/billing/entitlements/appstore.js';

export interface Pki {
  dir: string;
  rootPem: string;
  rootPath: string;
  /** base64 DER of leaf, intermediate, root. */
  x5c: string[];
  leafKey: KeyObject;
  /** A second leaf under the same intermediate without Apple's leaf marker extension. */
  unmarked: { x5c: string[]; key: KeyObject };
  cleanup(): void;
}

const CONFIG = `
[req]
distinguished_name = dn
prompt = no
[dn]
CN = placeholder
[root]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[inter]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
${APPLE_INTERMEDIATE_OID} = ASN1:NULL
[leaf]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
${APPLE_LEAF_OID} = ASN1:NULL
[leaf_plain]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
`;

/** Builds a fresh chain (about 50 ms of openssl). */
export function makePki(name = 'Test'): Pki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-pki-'));
  const f = (n: string) => path.join(dir, n);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  fs.writeFileSync(f('openssl.cnf'), CONFIG);
  for (const k of ['root', 'inter', 'leaf', 'plain']) ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f(`${k}.key`));
  ssl('req', '-config', f('openssl.cnf'), '-x509', '-new', '-key', f('root.key'), '-subj', `/CN=${name} Root CA`, '-days', '3650', '-sha256', '-extensions', 'root', '-out', f('root.pem'));
  ssl('req', '-config', f('openssl.cnf'), '-new', '-key', f('inter.key'), '-subj', `/CN=${name} Intermediate`, '-out', f('inter.csr'));
  ssl('x509', '-req', '-in', f('inter.csr'), '-CA', f('root.pem'), '-CAkey', f('root.key'), '-set_serial', '2', '-days', '3650', '-sha256', '-extfile', f('openssl.cnf'), '-extensions', 'inter', '-out', f('inter.pem'));
  ssl('req', '-config', f('openssl.cnf'), '-new', '-key', f('leaf.key'), '-subj', `/CN=${name} Signing`, '-out', f('leaf.csr'));
  ssl('x509', '-req', '-in', f('leaf.csr'), '-CA', f('inter.pem'), '-CAkey', f('inter.key'), '-set_serial', '3', '-days', '3650', '-sha256', '-extfile', f('openssl.cnf'), '-extensions', 'leaf', '-out', f('leaf.pem'));
  ssl('req', '-config', f('openssl.cnf'), '-new', '-key', f('plain.key'), '-subj', `/CN=${name} Other Leaf`, '-out', f('plain.csr'));
  ssl('x509', '-req', '-in', f('plain.csr'), '-CA', f('inter.pem'), '-CAkey', f('inter.key'), '-set_serial', '4', '-days', '3650', '-sha256', '-extfile', f('openssl.cnf'), '-extensions', 'leaf_plain', '-out', f('plain.pem'));
  const der = (n: string) => new X509Certificate(fs.readFileSync(f(n))).raw.toString('base64');
  return {
    dir,
    rootPem: fs.readFileSync(f('root.pem'), 'utf8'),
    rootPath: f('root.pem'),
    x5c: [der('leaf.pem'), der('inter.pem'), der('root.pem')],
    leafKey: createPrivateKey(fs.readFileSync(f('leaf.key'))),
    unmarked: { x5c: [der('plain.pem'), der('inter.pem'), der('root.pem')], key: createPrivateKey(fs.readFileSync(f('plain.key'))) },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export const BUNDLE_ID = 'com.example.agentapp';

/** A JWSTransactionDecodedPayload with sensible defaults (a consumable bought just now). */
export function transaction(now: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const id = String(2000000000000000 + Math.floor(Math.random() * 1e12));
  return {
    transactionId: id,
    originalTransactionId: id,
    bundleId: BUNDLE_ID,
    productId: 'com.example.credits.small',
    purchaseDate: now - 60_000,
    originalPurchaseDate: now - 60_000,
    quantity: 1,
    type: 'Consumable',
    inAppOwnershipType: 'PURCHASED',
    signedDate: now,
    environment: 'Sandbox',
    transactionReason: 'PURCHASE',
    storefront: 'USA',
    storefrontId: '143441',
    price: 990,
    currency: 'USD',
    appTransactionId: randomUUID(),
    ...over,
  };
}

/** Signs a payload as the App Store does: ES256 with the leaf key, x5c = [leaf, intermediate, root]. */
export async function sign(pki: Pki, payload: Record<string, unknown>, header: { x5c?: string[]; key?: KeyObject } = {}): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', x5c: header.x5c ?? pki.x5c })
    .sign(header.key ?? pki.leafKey);
}

/** Replaces the payload of a signed JWS and keeps its signature (what an attacker editing a receipt does). */
export function tamper(jws: string, edit: (p: Record<string, unknown>) => Record<string, unknown>): string {
  const [h, p, s] = jws.split('.');
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
  return [h, Buffer.from(JSON.stringify(edit(payload))).toString('base64url'), s].join('.');
}
