// Entitlement settings are validated at start-up with messages naming the variable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { extensionOids } from '../../src/billing/entitlements/der.js';
import { APPLE_INTERMEDIATE_OID, APPLE_LEAF_OID } from '../../src/billing/entitlements/appstore.js';
import { makePki, type Pki } from './pki.js';

let pki: Pki;
beforeAll(() => {
  pki = makePki('Config');
});
afterAll(() => pki.cleanup());

const base = () => ({ GATEWAY_APPSTORE_ROOT_CERT: pki.rootPath, GATEWAY_APPSTORE_BUNDLE_ID: 'com.example.app' });

describe('entitlement configuration', () => {
  it('is off by default', () => {
    const c = loadConfig({});
    expect(c.entitlements).toEqual({ products: {}, appstore: null });
  });

  it('reads the root certificate from a path or inline PEM, the bundle id, environment and products', () => {
    const products = { 'com.example.pro': { tier: 'pro' }, 'com.example.c1000': { credits: 1000000 } };
    const fromPath = loadConfig({ ...base(), GATEWAY_ENTITLEMENT_PRODUCTS: JSON.stringify(products) });
    expect(fromPath.entitlements.appstore).toEqual({ rootCerts: [pki.rootPem.trim()], bundleId: 'com.example.app', environment: 'Production' });
    expect(fromPath.entitlements.products).toEqual(products);
    const inline = loadConfig({ ...base(), GATEWAY_APPSTORE_ROOT_CERT: pki.rootPem, GATEWAY_APPSTORE_ENVIRONMENT: 'Sandbox' });
    expect(inline.entitlements.appstore).toMatchObject({ rootCerts: [pki.rootPem.trim()], environment: 'Sandbox' });
  });

  it.each([
    ['GATEWAY_ENTITLEMENT_PRODUCTS', '{not json', /must be JSON/],
    ['GATEWAY_ENTITLEMENT_PRODUCTS', '{"p": {"tier": "gold"}}', /must map product ids .* at "p"/],
    ['GATEWAY_ENTITLEMENT_PRODUCTS', '{"p": {"credits": -1}}', /must map product ids/],
    ['GATEWAY_ENTITLEMENT_PRODUCTS', '{"p": {"credits": 5, "tier": "pro"}}', /must map product ids/],
    ['GATEWAY_ENTITLEMENT_PRODUCTS', '[]', /must map product ids/],
    ['GATEWAY_APPSTORE_ROOT_CERT', '/nonexistent/root.pem', /must be a PEM root certificate or a path to one: no such file/],
    ['GATEWAY_APPSTORE_ROOT_CERT', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', /must be a PEM root certificate/],
    ['GATEWAY_APPSTORE_BUNDLE_ID', 'com example', /bundle id/],
    ['GATEWAY_APPSTORE_ENVIRONMENT', 'Staging', /Production or Sandbox/],
  ])('refuses %s=%s', (key, value, message) => {
    const env = { ...base(), [key]: value };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${key}=`));
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('needs the root and the bundle id together', () => {
    expect(() => loadConfig({ GATEWAY_APPSTORE_BUNDLE_ID: 'com.example.app' })).toThrow(/must be set together/);
    expect(() => loadConfig({ GATEWAY_APPSTORE_ROOT_CERT: pki.rootPath })).toThrow(/must be set together/);
  });
});

describe('certificate extension OIDs', () => {
  it("finds Apple's markers on the test chain and none on the root", () => {
    const [leaf, inter, root] = pki.x5c.map((b) => Buffer.from(b, 'base64'));
    expect(extensionOids(leaf)).toContain(APPLE_LEAF_OID);
    expect(extensionOids(leaf)).toContain('2.5.29.19'); // basicConstraints
    expect(extensionOids(inter)).toContain(APPLE_INTERMEDIATE_OID);
    expect(extensionOids(root)).not.toContain(APPLE_LEAF_OID);
    expect(extensionOids(Buffer.from(pki.unmarked.x5c[0], 'base64'))).not.toContain(APPLE_LEAF_OID);
    expect(() => extensionOids(Buffer.from([0x30, 0x82, 0xff]))).toThrow();
  });
});
