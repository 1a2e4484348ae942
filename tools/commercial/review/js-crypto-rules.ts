// This project's ESLint rules for cryptography and tokens: weak hashes and ciphers, fixed IVs, JWTs verified
// without naming the algorithms (or accepting "none"), express-jwt without revocation, credentials written into
// the code where an auth or crypto API takes them, and passwords signed into a JWT.
import type { Rule, SourceCode } from 'eslint';
import type * as ESTree from 'estree';
import { boundValue, calleeName, dotted, keyName, moduleOf, objectOf, property, propertyName, rootOf, simpleRule, staticString, variableOf } from './js-ast.js';
import type { RuleInfo } from './js-rules.js';

const WEAK_HASH = /^(md2|md4|md5|sha-?1|ripemd-?160|rmd160)$/i;
// Cipher names (Node/OpenSSL spelling) that are broken, retired or leak patterns: DES and triple DES (64-bit blocks,
// retired by NIST in 2023), RC2/RC4, Blowfish, CAST, IDEA, SEED, any ECB mode.
const WEAK_CIPHER = /(^|-)ecb$|^des(-|$|3)|^rc[24](-|$)|^bf(-|$)|^blowfish|^cast5?(-|$)|^idea|^seed/i;

/** True when the module a name was required or imported from is one of `mods`, or (unresolved) the name is. */
function fromModule(sc: SourceCode, id: ESTree.Node | undefined, mods: RegExp, names?: RegExp): boolean {
  if (!id || id.type !== 'Identifier') return false;
  const m = moduleOf(sc, id);
  if (m !== undefined) return mods.test(m);
  return names ? names.test(id.name) : false;
}

const isCrypto = (sc: SourceCode, node: ESTree.Node) => {
  if (node.type === 'CallExpression' && dotted(node.callee) === 'require') return true; // require("crypto").createHash(…)
  return fromModule(sc, rootOf(node), /^(node:)?crypto$/, /^crypto(_\d+)?$/i);
};

/** crypto.<name>(…), require('crypto').<name>(…), or <name>(…) imported from crypto. */
function cryptoCall(sc: SourceCode, node: ESTree.CallExpression, names: RegExp): string | undefined {
  const name = calleeName(node);
  if (!name || !names.test(name)) return undefined;
  if (node.callee.type === 'MemberExpression') return isCrypto(sc, node.callee.object) ? name : undefined;
  return node.callee.type === 'Identifier' && /^(node:)?crypto$/.test(moduleOf(sc, node.callee) ?? '') ? name : undefined;
}

const weakHash = simpleRule((context) => ({
  CallExpression(node) {
    const sc = context.sourceCode;
    if (cryptoCall(sc, node, /^createHash$/)) {
      const alg = staticString(sc, node.arguments[0]);
      if (alg && WEAK_HASH.test(alg)) context.report({ node, message: `${alg.toUpperCase()} is a broken hash: collisions can be forged.` });
      return;
    }
    // CryptoJS.MD5(…), CryptoJS.SHA1(…), and the md5 / sha1 packages called directly.
    const d = dotted(node.callee);
    if (d && /^CryptoJS\.(MD5|SHA1|RIPEMD160)$/.test(d)) context.report({ node, message: `${d.split('.')[1]} is a broken hash.` });
    else if (node.callee.type === 'Identifier' && fromModule(sc, node.callee, /^(md5|sha1|crypto-js\/(md5|sha1))$/)) context.report({ node, message: `${node.callee.name} is a broken hash.` });
  },
}));

const weakCipher = simpleRule((context) => ({
  CallExpression(node) {
    const sc = context.sourceCode;
    const name = cryptoCall(sc, node, /^(createCipher|createDecipher)$/);
    if (name) {
      context.report({ node, message: `crypto.${name} derives the key with one round of MD5 and uses no IV (deprecated).` });
      return;
    }
    if (calleeName(node) === 'createCipheriv' || calleeName(node) === 'createDecipheriv') {
      const alg = staticString(sc, node.arguments[0]);
      if (alg && WEAK_CIPHER.test(alg)) context.report({ node, message: `The cipher ${alg} is weak (${/ecb/i.test(alg) ? 'ECB mode shows the patterns of the plaintext' : 'a broken or too short cipher'}).` });
      return;
    }
    const d = dotted(node.callee);
    if (d && /^CryptoJS\.(DES|TripleDES|RC4|RC4Drop|Rabbit)\.(encrypt|decrypt)$/.test(d)) context.report({ node, message: `${d.split('.')[1]} is a weak cipher.` });
  },
  MemberExpression(node) {
    if (dotted(node) === 'CryptoJS.mode.ECB') context.report({ node, message: 'ECB mode shows the patterns of the plaintext.' });
  },
}));

/** An IV the code fixes: a string literal, a constant bound to one, Buffer.from('…'), Buffer.alloc(n) (zeros). */
function fixedIv(sc: SourceCode, node: ESTree.Node | undefined): string | undefined {
  if (!node) return undefined;
  const s = staticString(sc, node);
  if (s !== undefined) return s === '' ? 'empty' : 'constant';
  if (node.type === 'CallExpression') {
    const d = dotted(node.callee);
    if (d === 'Buffer.alloc') return 'all zeros';
    if (d === 'Buffer.from' && staticString(sc, node.arguments[0]) !== undefined) return 'constant';
  }
  if (node.type === 'Identifier') {
    const init = boundValue(sc, node);
    return init && init !== node ? fixedIv(sc, init) : undefined;
  }
  return undefined;
}

const staticIv = simpleRule((context) => ({
  CallExpression(node) {
    const name = calleeName(node);
    if ((name !== 'createCipheriv' && name !== 'createDecipheriv') || node.callee.type !== 'MemberExpression') return;
    const alg = staticString(context.sourceCode, node.arguments[0]);
    if (alg && /(^|-)ecb$/i.test(alg)) return; // ECB takes no IV; weak-cipher reports it
    const iv = fixedIv(context.sourceCode, node.arguments[2]);
    if (iv) context.report({ node: node.arguments[2]!, message: `The IV is ${iv}: an IV must be random (crypto.randomBytes) for every encryption.` });
  },
}));

/** `jwt.verify`/`jwt.sign` of jsonwebtoken, and jose's (v1/v2) JWT.verify/JWT.sign. */
function jwtCall(sc: SourceCode, node: ESTree.CallExpression, method: 'verify' | 'sign'): boolean {
  if (node.callee.type !== 'MemberExpression' || calleeName(node) !== method) return false;
  const recv = node.callee.object;
  if (recv.type === 'CallExpression') return requireOf(recv) === 'jsonwebtoken';
  if (recv.type === 'MemberExpression') return dotted(recv)?.endsWith('.JWT') === true && fromModule(sc, rootOf(recv), /^jose$/, /^jose$/);
  if (recv.type !== 'Identifier') return false;
  const m = moduleOf(sc, recv);
  if (m !== undefined) return m === 'jsonwebtoken' || (m === 'jose' && recv.name === 'JWT');
  return /^(jwt|jsonwebtoken|jsonwt|JWT|\$jwt)$/.test(recv.name);
}

function requireOf(node: ESTree.CallExpression): string | undefined {
  return dotted(node.callee) === 'require' && node.arguments[0]?.type === 'Literal' ? String(node.arguments[0].value) : undefined;
}

const algorithmsOf = (sc: SourceCode, opts: ESTree.Node | undefined) => property(objectOf(sc, opts), 'algorithms');

const jwtVerifyAlgorithms = simpleRule((context) => ({
  CallExpression(node) {
    const sc = context.sourceCode;
    if (!jwtCall(sc, node, 'verify')) return;
    const opts = node.arguments[2];
    // An options object given by a name this rule cannot read is given the benefit of the doubt.
    if (opts && opts.type !== 'ObjectExpression' && opts.type !== 'FunctionExpression' && opts.type !== 'ArrowFunctionExpression' && !objectOf(sc, opts)) return;
    const algs = algorithmsOf(sc, opts);
    if (!algs) {
      context.report({ node, message: 'The JWT is verified without naming the accepted algorithms: a token can choose its own (alg confusion, "none").' });
      return;
    }
    if (algs.type === 'ArrayExpression' && algs.elements.some((e) => e && staticString(sc, e)?.toLowerCase() === 'none')) context.report({ node: algs, message: 'The JWT verification accepts the "none" algorithm: unsigned tokens pass.' });
  },
  MemberExpression(node) {
    // jose v1/v2: JWK.None verifies unsigned tokens.
    if (dotted(node)?.endsWith('JWK.None') || (dotted(node) === 'None' && false)) context.report({ node, message: 'JWK.None accepts unsigned tokens.' });
  },
}));

/** express-jwt (and koa-jwt) middleware: `jwt({ secret… })`, `expressjwt({…})`. */
function isJwtMiddleware(sc: SourceCode, node: ESTree.CallExpression): boolean {
  const c = node.callee;
  if (c.type === 'Identifier') return fromModule(sc, c, /^(express-jwt|koa-jwt)$/, /^(expressJwt|expressjwt|koaJwt)$/);
  if (c.type === 'MemberExpression' && c.object.type === 'Identifier') return calleeName(node) === 'expressjwt' && fromModule(sc, c.object, /^express-jwt$/);
  return false;
}

/** The options object of a call, through one name and through Object.assign({…}, {…}). */
function optionObjects(sc: SourceCode, node: ESTree.Node | undefined): ESTree.ObjectExpression[] {
  if (!node) return [];
  const o = objectOf(sc, node);
  if (o) return [o];
  const value = node.type === 'Identifier' ? boundValue(sc, node) : node;
  if (value?.type === 'CallExpression' && dotted(value.callee) === 'Object.assign') return value.arguments.flatMap((a) => optionObjects(sc, a));
  return [];
}

/** jsonwebtoken's decode() in a file that never calls verify(): the token's claims are trusted unchecked. */
const jwtDecodeUnverified = simpleRule((context) => {
  const decodes: ESTree.CallExpression[] = [];
  let verifies = false;
  return {
    CallExpression(node) {
      const sc = context.sourceCode;
      if (jwtCall(sc, node, 'verify')) verifies = true;
      else if (node.callee.type === 'MemberExpression' && calleeName(node) === 'decode' && jwtCall(sc, { ...node, callee: { ...node.callee, property: { type: 'Identifier', name: 'verify' } } } as ESTree.CallExpression, 'verify')) decodes.push(node);
      // sign(…, { algorithm: 'none' }): an unsigned token.
      if (jwtCall(sc, node, 'sign') && staticString(sc, property(objectOf(sc, node.arguments[2]), 'algorithm'))?.toLowerCase() === 'none') context.report({ node, message: 'The JWT is issued with the "none" algorithm: it carries no signature.' });
    },
    'Program:exit'() {
      if (!verifies) for (const node of decodes) context.report({ node, message: 'jwt.decode() reads the token without checking its signature, and nothing in this file verifies it: anyone can forge the claims.' });
    },
  };
});

const jwtNotRevoked = simpleRule((context) => ({
  CallExpression(node) {
    const sc = context.sourceCode;
    if (!isJwtMiddleware(sc, node)) return;
    const objs = optionObjects(sc, node.arguments[0]);
    if (objs.length === 0 && node.arguments[0]?.type !== 'Identifier' && node.arguments[0]?.type !== 'CallExpression') return;
    if (objs.length > 0 && objs.some((o) => property(o, 'isRevoked'))) return;
    if (objs.length === 0 && node.arguments[0]?.type === 'Identifier') return; // options this rule cannot read
    context.report({ node, message: 'JWTs are accepted without a revocation check (isRevoked): a stolen or logged-out token stays valid until it expires.' });
  },
}));

// Credentials: where an auth or crypto API takes a secret, a constant string there is a hard-coded credential.
const SECRET_KEYS = /^(secret|secretOrKey|secretOrPrivateKey|clientSecret|consumerSecret|client_secret|privateKey|private_key|secretAccessKey|secret_access_key|accessKeySecret|apiKey|api_key|apiSecret|api_secret|password|passwd|pass|authToken|auth_token|accessToken|access_token|token|masterKey|encryptionKey|signingKey|sessionSecret)$/i;

function looksLikeSecret(value: string, key?: string): boolean {
  if (value.length < 3 || /\s/.test(value)) return false;
  // A field name or label ('password'), a reference to where the value lives (an env var's name, a path, a URL,
  // a template), a mask: not the secret itself.
  if (key) {
    const v = value.toLowerCase().replace(/[^a-z]/g, '');
    const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
    if (v === words.join('') || v === words.at(-1)) return false;
  }
  if (/^(process\.env|\$\{|<.*>$|%\w+%$|[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|\*+$|x{3,}$|[#./]|https?:)/i.test(value) && !/^[a-f0-9]{16,}$/i.test(value)) return false;
  return true;
}

/** Names that hold a credential: …password, …secret, api key, access/auth token, private key (by their last words). */
export function credentialName(name: string): boolean {
  if (SECRET_KEYS.test(name)) return true;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const last = words.at(-1) ?? '';
  const two = words.slice(-2).join('');
  return /^(password|passwd|pwd|pass|secret|credentials?)$/.test(last) || /^(apikey|secretkey|privatekey|accesskey|authtoken|accesstoken|apitoken|clientsecret|apisecret)$/.test(two) || /^(apikey|secretkey|privatekey)$/.test(last);
}

const hardcodedSecret = simpleRule((context) => {
  const sc = context.sourceCode;
  const report = (node: ESTree.Node, what: string) => context.report({ node, message: `${what} is written into the code: anyone with the source (or the bundle) has it.` });
  const constantSecret = (node: ESTree.Node | undefined, key?: string) => {
    const s = node && node.type !== 'ObjectExpression' ? staticString(sc, node) : undefined;
    return s !== undefined && looksLikeSecret(s, key) ? s : undefined;
  };
  return {
    CallExpression(node) {
      // jsonwebtoken / jose: sign(payload, SECRET), verify(token, SECRET); jose's JWK.asKey(SECRET).
      if ((jwtCall(sc, node, 'sign') || jwtCall(sc, node, 'verify')) && constantSecret(node.arguments[1])) return report(node.arguments[1]!, 'The JWT signing key');
      if (dotted(node.callee)?.endsWith('JWK.asKey') && constantSecret(node.arguments[0])) return report(node.arguments[0]!, 'The JWT key');
      const name = calleeName(node);
      if (name === 'createHmac' && constantSecret(node.arguments[1])) return report(node.arguments[1]!, 'The HMAC key');
      if ((name === 'createCipheriv' || name === 'createDecipheriv') && constantSecret(node.arguments[1])) return report(node.arguments[1]!, 'The encryption key');
      if (node.callee.type === 'Identifier' && fromModule(sc, node.callee, /^cookie-parser$/, /^cookieParser$/) && constantSecret(node.arguments[0])) return report(node.arguments[0]!, 'The cookie signing secret');
      // config.set('apiKey', '…'), module.constant('api_key', '…'): a credential's name, then its value.
      const key = node.arguments.length === 2 ? staticString(sc, node.arguments[0]) : undefined;
      if (key && credentialName(key) && constantSecret(node.arguments[1], key)) return report(node.arguments[1]!, `The ${key}`);
      checkOptions(node);
    },
    NewExpression(node) {
      checkOptions(node);
    },
    // const dbPassword = '…', config.apiKey = '…', obj['secret'] = '…'.
    VariableDeclarator(node) {
      if (node.id.type === 'Identifier' && credentialName(node.id.name) && constantSecret(node.init ?? undefined, node.id.name)) report(node.init!, `The ${node.id.name}`);
    },
    AssignmentExpression(node) {
      const name = node.left.type === 'Identifier' ? node.left.name : node.left.type === 'MemberExpression' ? propertyName(node.left) : undefined;
      if (name && credentialName(name) && constantSecret(node.right, name)) report(node.right, `The ${name}`);
    },
    // { password: '…' } in any object literal: options, configs, fixtures.
    Property(node) {
      const key = keyName(node);
      if (key && credentialName(key) && node.value.type !== 'ObjectExpression' && constantSecret(node.value, key)) report(node.value, `The ${key}`);
    },
  };
  /** A secret-named option of any call or object literal (express-jwt, express-session, passport strategies, SDK clients, configs…). */
  function checkOptions(node: ESTree.CallExpression | ESTree.NewExpression) {
    for (const arg of node.arguments) {
      for (const obj of optionObjects(sc, arg)) {
        for (const p of obj.properties) {
          const key = keyName(p);
          if (!key || p.type !== 'Property') continue;
          if (/^keys$/i.test(key) && p.value.type === 'ArrayExpression' && p.value.elements.some((e) => e && constantSecret(e))) report(p.value, 'The cookie signing keys');
        }
      }
    }
  }
});

// Passwords and secrets signed into a JWT: its payload is only base64, readable by whoever holds the token.
const SENSITIVE = /^(password|passwd|pwd|pass|passwordHash|password_hash|hash|salt|secret|ssn|creditCard|cardNumber)$/i;

function sensitiveKey(sc: SourceCode, node: ESTree.Node | undefined, depth = 0): string | undefined {
  if (!node || depth > 3) return undefined;
  if (node.type === 'ObjectExpression') {
    for (const p of node.properties) {
      const k = keyName(p);
      if (k && SENSITIVE.test(k)) return k;
      const inner = p.type === 'Property' ? sensitiveKey(sc, p.value, depth + 1) : sensitiveKey(sc, p.argument, depth + 1);
      if (inner) return inner;
    }
    return undefined;
  }
  if (node.type === 'CallExpression' && dotted(node.callee) === 'Object.assign') {
    for (const a of node.arguments) {
      const k = sensitiveKey(sc, a, depth + 1);
      if (k) return k;
    }
    return undefined;
  }
  if (node.type === 'Identifier') {
    const v = variableOf(sc, node);
    if (!v) return undefined;
    for (const r of v.references) {
      // payload = {…} (declared or assigned later), and payload.password = … before the signature.
      const w = r.writeExpr;
      if (w) {
        const k = sensitiveKey(sc, w, depth + 1);
        if (k) return k;
      }
      // payload.password = …, payload.user.password = …
      let m = (r.identifier as ESTree.Node & { parent?: ESTree.Node }).parent;
      while (m?.type === 'MemberExpression') {
        const key = propertyName(m);
        const up: ESTree.Node | undefined = (m as ESTree.Node & { parent?: ESTree.Node }).parent;
        if (key && SENSITIVE.test(key) && up?.type === 'AssignmentExpression' && up.left === m) return key;
        m = up;
      }
    }
  }
  return undefined;
}

const jwtSensitivePayload = simpleRule((context) => ({
  CallExpression(node) {
    const sc = context.sourceCode;
    if (!jwtCall(sc, node, 'sign')) return;
    const payload = node.arguments[0];
    const key = sensitiveKey(sc, payload);
    if (key) context.report({ node: payload!, message: `The JWT payload carries "${key}": a JWT is signed, not encrypted, and anyone holding it can read it.` });
    else if (payload?.type === 'Identifier' && /^(user|account|profile|member|customer|person|admin)(Doc|Record|Data|Obj)?$/i.test(payload.name) && isParameter(sc, payload)) context.report({ node: payload, message: 'A whole user record is signed into the JWT: name the claims it needs, so that no password hash or personal data rides along.' });
  },
}));

function isParameter(sc: SourceCode, id: ESTree.Identifier): boolean {
  const v = variableOf(sc, id);
  return v?.defs[0]?.type === 'Parameter';
}

// Secrets compared with === outside an if (eslint-plugin-security's detect-possible-timing-attacks covers if tests):
// `return token === expected`, `const ok = hash === stored`.
const SECRET_NAME = /(^|[^a-z])(password|passwd|secret|token|hash|digest|signature|hmac|api_?key|apikey)s?$/i;
const timingUnsafeCompare = simpleRule((context) => ({
  BinaryExpression(node) {
    if (!/^[!=]==?$/.test(node.operator)) return;
    const named = (n: ESTree.Node) => {
      const name = n.type === 'Identifier' ? n.name : n.type === 'MemberExpression' ? propertyName(n) : undefined;
      return !!name && SECRET_NAME.test(name);
    };
    const plain = (n: ESTree.Node) => n.type === 'Literal' || (n.type === 'Identifier' && n.name === 'undefined') || n.type === 'UnaryExpression' || (n.type === 'MemberExpression' && propertyName(n) === 'length');
    const { left, right } = node;
    if (left.type === 'PrivateIdentifier' || plain(left) || plain(right) || !(named(left) || named(right))) return;
    // Inside an if test, eslint-plugin-security reports it.
    for (let p = (node as ESTree.Node & { parent?: ESTree.Node }).parent; p; p = (p as ESTree.Node & { parent?: ESTree.Node }).parent) {
      if (p.type === 'IfStatement') return;
      if (!/Expression$/.test(p.type)) break;
    }
    context.report({ node, message: 'A secret is compared with ===, which stops at the first difference: the time it takes tells an attacker how much of a guess is right.' });
  },
}));

export const CRYPTO_RULES: Record<string, { info: RuleInfo; rule: Rule.RuleModule }> = {
  'weak-hash': { rule: weakHash, info: { category: 'security', severity: 'medium', cwe: 'CWE-328', fix: 'Use SHA-256 or stronger (crypto.createHash("sha256")); for passwords, scrypt/argon2/bcrypt.' } },
  'weak-cipher': { rule: weakCipher, info: { category: 'security', severity: 'high', cwe: 'CWE-327', fix: 'Use AES-256-GCM (or ChaCha20-Poly1305) through crypto.createCipheriv with a random IV.' } },
  'static-iv': { rule: staticIv, info: { category: 'security', severity: 'high', cwe: 'CWE-329', fix: 'Generate the IV with crypto.randomBytes for every encryption and store it beside the ciphertext.' } },
  'jwt-verify-algorithms': { rule: jwtVerifyAlgorithms, info: { category: 'security', severity: 'high', cwe: 'CWE-347', fix: 'Pass { algorithms: ["RS256"] } (the algorithm the tokens are signed with) to jwt.verify; never accept "none".' } },
  'jwt-unverified': { rule: jwtDecodeUnverified, info: { category: 'security', severity: 'high', cwe: 'CWE-347', fix: 'Verify the token (jwt.verify with the key and { algorithms: [...] }) before trusting any claim; sign with a real algorithm.' } },
  'jwt-not-revoked': { rule: jwtNotRevoked, info: { category: 'security', severity: 'low', cwe: 'CWE-613', fix: 'Give express-jwt an isRevoked callback that checks a deny-list of logged-out or stolen tokens.' } },
  'hardcoded-secret': { rule: hardcodedSecret, info: { category: 'security', severity: 'high', cwe: 'CWE-798', fix: 'Read the secret from the environment or a secret manager (process.env.JWT_SECRET), and rotate the one that was committed.' } },
  'timing-unsafe-compare': { rule: timingUnsafeCompare, info: { category: 'security', severity: 'medium', cwe: 'CWE-208', fix: 'Compare secrets with crypto.timingSafeEqual on buffers of equal length (after hashing both, if the lengths may differ).' } },
  'jwt-sensitive-payload': { rule: jwtSensitivePayload, info: { category: 'security', severity: 'medium', cwe: 'CWE-522', fix: 'Sign only the claims the token needs (an id, roles); never passwords or their hashes.' } },
};
