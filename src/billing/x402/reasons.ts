// Why a payment was refused: the facilitator's reason codes (@x402/evm exact scheme) plus a few for checks the
// gateway makes itself (decoding, the ledger). The 402 `error` starts with the code, then says it in words.

export const Reason = {
  invalidPayload: 'invalid_payload',
  invalidVersion: 'invalid_x402_version',
  unsupportedPayload: 'unsupported_payload_type',
  scheme: 'invalid_exact_evm_scheme',
  network: 'invalid_exact_evm_network_mismatch',
  asset: 'invalid_exact_evm_asset_mismatch',
  recipient: 'invalid_exact_evm_recipient_mismatch',
  amount: 'invalid_exact_evm_payload_authorization_value_mismatch',
  validBefore: 'invalid_exact_evm_payload_authorization_valid_before',
  validAfter: 'invalid_exact_evm_payload_authorization_valid_after',
  signature: 'invalid_exact_evm_signature',
  nonceUsed: 'invalid_exact_evm_nonce_already_used',
  insufficientBalance: 'invalid_exact_evm_insufficient_balance',
  simulationFailed: 'invalid_exact_evm_transaction_simulation_failed',
  settlementPending: 'settlement_pending',
  unreachable: 'unexpected_settle_error',
} as const;

/** Words for the reasons a client is most likely to meet (also the facilitator's, which have no message). */
const WORDS: Record<string, string> = {
  [Reason.scheme]: 'wrong scheme: this gateway takes the "exact" scheme',
  [Reason.network]: 'wrong network',
  [Reason.asset]: 'wrong asset',
  [Reason.recipient]: 'wrong payTo: the authorization must pay the address in the requirements',
  [Reason.amount]: 'wrong amount: the authorization must pay exactly the amount in the requirements',
  [Reason.validBefore]: 'expired: validBefore has passed or leaves no time to settle',
  [Reason.validAfter]: 'not yet valid: validAfter is in the future',
  [Reason.signature]: 'the signature does not recover the payer (from)',
  [Reason.nonceUsed]: 'nonce already used: this authorization was presented before',
  [Reason.insufficientBalance]: "insufficient_funds: the payer's balance is below the amount",
  [Reason.simulationFailed]: 'the transfer would fail on chain',
  invalid_exact_evm_token_name_mismatch: "the EIP-712 domain name does not match the token's",
  invalid_exact_evm_token_version_mismatch: "the EIP-712 domain version does not match the token's",
  invalid_exact_evm_eip3009_not_supported: 'the asset does not support EIP-3009',
  invalid_exact_evm_transaction_failed: 'the settlement transaction failed',
  invalid_exact_evm_transfer_event_mismatch: 'the settlement transaction has no matching Transfer event',
  asset_not_deployed_contract: 'the asset is not a contract on this network',
  eip6492_factory_not_allowed: 'undeployed smart wallets are not accepted',
  [Reason.settlementPending]: 'the settlement transaction was sent but not confirmed in time',
  [Reason.unreachable]: 'the payment network could not be reached to settle',
};

export const describeReason = (reason: string, detail?: string): string =>
  `${reason}: ${detail ?? WORDS[reason] ?? 'the payment was not accepted'}`;

/** A payment refused before the tool ran: answered with 402, the challenge and the reason. */
export class PaymentRejected extends Error {
  constructor(
    readonly reason: string,
    detail?: string,
    readonly payer?: string,
  ) {
    super(describeReason(reason, detail));
    this.name = 'PaymentRejected';
  }
}
