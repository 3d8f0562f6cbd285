/**
 * The kinds of REFPAY payment the shop owner should act on, in the order the REFPAY page's tabs show them. The one
 * list: the admin routes validate and count by it, and the admin UI (which bundles this file) shows it; so it
 * imports nothing. What each kind means: src/api/admin/refpay/attention/attention-lists.ts.
 */
export const ATTENTION_KINDS = [
  "expiring",
  "paid_after_cancellation",
  "paid_after_session_deleted",
  "refund_mismatch",
  "amount_mismatch",
  "unknown_payment",
  "platform_error",
] as const

export type AttentionKind = (typeof ATTENTION_KINDS)[number]

/** The order the order list's line names them: money to give back first, what is merely expiring last. */
export const ATTENTION_KINDS_MONEY_FIRST: readonly AttentionKind[] = [
  ...ATTENTION_KINDS.filter((kind) => kind !== "expiring"),
  "expiring",
]
