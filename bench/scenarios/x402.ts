// Issue 4 targets: x402 pay-per-call against a local chain (ganache in its own process, the project's
// EIP-3009 test token). Server-side verification time per paid call (p50/p99, from the gateway's
// Server-Timing header), end-to-end paid calls/s, and the same call with an API key in the same run, alone and
// while paid calls settle beside it (settlement must not block other requests).
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import { recoverTypedDataAddress } from 'viem';
import { accountOf, startChain } from '../../test/x402/chain.js';
import { payer } from '../../test/x402/client.js';
import { startGateway } from '../lib/processes.js';

const CONVERT = JSON.stringify({ value: '255', from_base: 10, to_base: 16 });
const OPERATOR = 'bench-operator-token-0123456789';
const CONCURRENCY = 8;

interface Sample {
  status: number;
  ms: number;
  verify?: number;
  path?: string;
  settle?: number;
}

interface Run {
  name: string;
  calls: number;
  seconds: number;
  samples: Sample[];
}

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const f = (n: number, d = 2): string => (Number.isFinite(n) ? n.toFixed(d) : '–');

function timing(h: string | null): Pick<Sample, 'verify' | 'path' | 'settle'> {
  if (!h) return {};
  const v = /x402-verify;dur=([\d.]+);desc="(\w+)"/.exec(h);
  const s = /x402-settle;dur=([\d.]+)/.exec(h);
  return { verify: v ? Number(v[1]) : undefined, path: v?.[2], settle: s ? Number(s[1]) : undefined };
}

/** `calls` requests from `workers` concurrent clients; `headers(i)` gives each request's headers. */
async function drive(name: string, url: string, calls: number, headers: (i: number) => Record<string, string>, workers = CONCURRENCY): Promise<Run> {
  const samples: Sample[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = next++; i < calls; i = next++) {
        const t = performance.now();
        const r = await fetch(`${url}/tools/base_convert`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers(i) }, body: CONVERT });
        await r.arrayBuffer();
        samples.push({ status: r.status, ms: performance.now() - t, ...timing(r.headers.get('server-timing')) });
      }
    }),
  );
  return { name, calls, seconds: (performance.now() - t0) / 1000, samples };
}

async function presign(url: string, n: number): Promise<{ headers: string[]; signMs: number }> {
  const r = await fetch(`${url}/tools/base_convert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CONVERT });
  const pr: PaymentRequired = decodePaymentRequiredHeader(r.headers.get('payment-required')!);
  const p = payer('bench');
  const headers: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) headers.push((await p.sign(pr)).header);
  return { headers, signMs: (performance.now() - t0) / n };
}

function row(r: Run): string {
  const ok = r.samples.filter((s) => s.status === 200);
  const ms = ok.map((s) => s.ms);
  return `| ${r.name} | ${r.calls} | ${ok.length} | ${f(ok.length / r.seconds, 1)} | ${f(pct(ms, 50), 1)} | ${f(pct(ms, 99), 1)} |`;
}

/** secp256k1 public-key recovery over one authorization in this process: the floor of any signature check. */
async function ecdsaFloor(): Promise<number> {
  const account = accountOf('bench');
  const domain = { name: 'Test USDC', version: '2', chainId: 1337, verifyingContract: account.address };
  const message = { from: account.address, to: account.address, value: 1000n, validAfter: 0n, validBefore: 2n ** 40n, nonce: `0x${'12'.repeat(32)}` as const };
  const signature = await account.signTypedData({ domain, types: authorizationTypes, primaryType: 'TransferWithAuthorization', message });
  const xs: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t = performance.now();
    await recoverTypedDataAddress({ domain, types: authorizationTypes, primaryType: 'TransferWithAuthorization', message, signature });
    xs.push(performance.now() - t);
  }
  return pct(xs.slice(10), 50);
}

export async function x402(): Promise<string> {
  const out: string[] = ['## x402 pay-per-call (issue 4)'];
  const chain = await startChain({ child: true, fund: { bench: 10n ** 15n } });
  try {
    const gw = await startGateway({ ...chain.env(), GATEWAY_OPERATOR_TOKEN: OPERATOR });
    let strict: Awaited<ReturnType<typeof startGateway>> | undefined;
    try {
      const issued = await fetch(`${gw.url}/keys/issue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-operator-token': OPERATOR },
        body: JSON.stringify({ email: 'bench@example.com', tier: 'enterprise' }),
      });
      const key = ((await issued.json()) as { key: string }).key;
      const keyed = () => ({ 'x-api-key': key });

      // Warm up both paths (JIT, statement cache, the payer's first full chain check).
      await drive('warm-up key', gw.url, 200, keyed);
      const warm = await presign(gw.url, 20);
      await drive('warm-up paid', gw.url, warm.headers.length, (i) => ({ 'payment-signature': warm.headers[i] }));

      const N = 400;
      const apiKey = await drive('API key (enterprise), alone', gw.url, 2000, keyed);
      const one = await presign(gw.url, 100);
      const sequential = await drive('x402 paid, one client at a time', gw.url, one.headers.length, (i) => ({ 'payment-signature': one.headers[i] }), 1);
      const signed = await presign(gw.url, N);
      const paid = await drive('x402 paid (pre-signed payments)', gw.url, N, (i) => ({ 'payment-signature': signed.headers[i] }));

      // Settlement must not block other requests: API-key calls while paid calls settle.
      const more = await presign(gw.url, N);
      const [paidBeside, apiBeside] = await Promise.all([
        drive('x402 paid, with API-key traffic beside', gw.url, N, (i) => ({ 'payment-signature': more.headers[i] })),
        drive('API key, while paid calls settle', gw.url, 2000, keyed),
      ]);

      // Strict mode: every payment checked on chain (simulation), no payer cache.
      strict = await startGateway({ ...chain.env({ X402_VERIFY_CACHE_SECONDS: '0' }) });
      const strictSigned = await presign(strict.url, 120);
      const strictRun = await drive('x402 paid, X402_VERIFY_CACHE_SECONDS=0', strict.url, strictSigned.headers.length, (i) => ({
        'payment-signature': strictSigned.headers[i],
      }));

      const floor = await ecdsaFloor();
      out.push(`Local chain: ganache 7.9 (own process, instamine), chain id 1337; ${CONCURRENCY} concurrent clients; service wallet ${accountOf('service').address} settles every call.`);
      out.push('');
      out.push('| run | calls | 200s | calls/s | p50 ms | p99 ms |', '|---|---:|---:|---:|---:|---:|');
      for (const r of [apiKey, sequential, paid, paidBeside, apiBeside, strictRun]) out.push(row(r));
      out.push('');
      out.push('Server-side, from `Server-Timing` (x402-verify = decode + claim + signature + payer check, before the tool runs):');
      out.push('');
      out.push('| run | verify p50 ms | verify p99 ms | warm / cold | settle p50 ms | settle p99 ms |', '|---|---:|---:|---|---:|---:|');
      for (const r of [sequential, paid, paidBeside, strictRun]) {
        const ok = r.samples.filter((s) => s.status === 200);
        const v = ok.map((s) => s.verify!).filter((x) => x !== undefined);
        const st = ok.map((s) => s.settle!).filter((x) => x !== undefined);
        const w = ok.filter((s) => s.path === 'warm').length;
        out.push(`| ${r.name} | ${f(pct(v, 50))} | ${f(pct(v, 99))} | ${w} / ${ok.length - w} | ${f(pct(st, 50), 1)} | ${f(pct(st, 99), 1)} |`);
      }
      out.push('');
      const v50 = (r: Run) => pct(r.samples.filter((s) => s.status === 200).map((s) => s.verify!), 50);
      out.push(
        `- verification adds ${f(v50(sequential))} ms at p50 one call at a time, ${f(v50(paid))} ms with ${CONCURRENCY} concurrent clients (target < 5 ms); ` +
          `a full secp256k1 recovery costs ${f(floor)} ms on this machine (viem/noble, measured here); only a payer's first payment needs one, later ones check against its kept key`,
      );
      out.push(`- paid calls/s: ${f(paid.calls / paid.seconds, 1)} vs ${f(apiKey.calls / apiKey.seconds, 1)} with an API key (${f(paid.calls / paid.seconds / (apiKey.calls / apiKey.seconds))}×); each paid call waits for its own on-chain receipt`);
      out.push(
        `- API-key p99 while paid calls settle: ${f(pct(apiBeside.samples.map((s) => s.ms), 99), 1)} ms vs ${f(pct(apiKey.samples.map((s) => s.ms), 99), 1)} ms alone (settlement runs off the request path of other calls)`,
      );
      out.push(`- the client signs a payment in ${f(signed.signMs)} ms (payments were signed before the timed runs)`);
      const bad = [apiKey, sequential, paid, paidBeside, apiBeside, strictRun].flatMap((r) => r.samples.filter((s) => s.status !== 200).map((s) => `${r.name}: ${s.status}`));
      if (bad.length) out.push(`- non-200 answers: ${bad.length} (${[...new Set(bad)].slice(0, 5).join('; ')})`);
    } finally {
      await strict?.stop();
      await gw.stop();
    }
  } finally {
    await chain.stop();
  }
  return out.join('\n');
}
