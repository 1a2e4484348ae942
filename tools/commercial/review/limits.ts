// What a code review may take and what it may cost (docs/decisions/commercial-review.md). Tokens are counted as
// the gateway counts unreported usage everywhere: four characters a token.

/** Most characters of `code` (422 beyond): about 50,000 tokens, $5 at the default metered rate. */
export const MAX_CHARS = 200_000;
/** Most lines of `code` (422 beyond). */
export const MAX_LINES = 5_000;
/** Whole time the engines may take; beyond it the order fails and is released. */
export const TIME_BUDGET_MS = 20_000;
/** The model's call, when one is configured: completion tokens allowed for in the hold. */
export const MODEL_COMPLETION_TOKENS = 4096;

export const tokensOf = (chars: number): number => Math.ceil(chars / 4);
