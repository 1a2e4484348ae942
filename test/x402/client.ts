// The official x402 client (@x402/fetch + @x402/evm exact scheme) for a test payer, recording the payment
// headers it sends so tests can replay them.
import { x402Client, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { accountOf, type Who } from './chain.js';

export interface Payer {
  address: `0x${string}`;
  client: x402Client;
  /** fetch that answers a 402 by paying once. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** PAYMENT-SIGNATURE headers sent so far. */
  sent: string[];
  /** A payment for a challenge, signed by this payer, as the PAYMENT-SIGNATURE header value. */
  sign(pr: PaymentRequired): Promise<{ header: string; payload: PaymentPayload }>;
}

export function payer(who: Who): Payer {
  const account = accountOf(who);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  // The test token is not a default asset the client knows: allow it.
  client.setSpendControls(false);
  const sent: string[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const h = req.headers.get('payment-signature');
    if (h) sent.push(h);
    return fetch(req);
  };
  return {
    address: account.address,
    client,
    fetch: wrapFetchWithPayment(recording, client),
    sent,
    sign: async (pr) => {
      const payload = await client.createPaymentPayload(pr);
      return { header: encodePaymentSignatureHeader(payload), payload };
    },
  };
}
