import { Text } from "@medusajs/ui"
import type { AttentionKind } from "../../../../rules/attention-kinds"
import type { AdminPaymentRow } from "../../../../api/admin/refpay/payment-rows"
import type { Formatters, Translate } from "../../../lib/format"

/** What a kind's own column says about a payment: a time, and under it what that time means here. */
export type DetailLines = { when: string; note: string; urgent?: boolean }

type DetailOf = (row: AdminPaymentRow, t: Translate, format: Formatters) => DetailLines

const lastCheck =
  (withError: boolean): DetailOf =>
  (row, t, { dateTime }) => {
    const check = row.last_check
    const when = dateTime(check?.checked_at)
    const status = row.platform_status || "-"
    return {
      when:
        check && check.failures > 1
          ? t("refpay.attention.detail.failuresInARow", { when, count: check.failures })
          : when,
      note:
        withError && check?.error
          ? t("refpay.attention.detail.platformStatusWithError", { status, error: check.error })
          : t("refpay.attention.detail.platformStatus", { status }),
    }
  }

/**
 * What is still held of a late payment: Medusa's refundable amount, or, for a reference whose session Medusa deleted
 * (no Medusa payment), what the platform took less what it refunded.
 */
export function heldCents(row: AdminPaymentRow): number {
  if (row.payment) return row.payment.refundable_cents
  return row.session_status === "deleted" ? Math.max(0, row.amount_cents - (row.platform_refunded_cents ?? 0)) : 0
}

const paidAfterCancellation: DetailOf = (row, t, { dateTime, cents }) => {
  const refunded = row.payment ? row.payment.refunded_cents : (row.platform_refunded_cents ?? 0)
  return {
    when: dateTime(row.paid_after_cancellation_at),
    note:
      refunded > 0
        ? t("refpay.attention.detail.refundedAndHeld", { refunded: cents(refunded), held: cents(heldCents(row)) })
        : t("refpay.attention.detail.held", { held: cents(heldCents(row)) }),
  }
}

const refundMismatch: DetailOf = (row, t, { cents }) => ({
  when: t("refpay.attention.detail.refundedOnBothSides", {
    medusa: cents(row.payment?.refunded_cents ?? 0),
    refpay: cents(row.platform_refunded_cents ?? 0),
  }),
  note: t("refpay.attention.detail.refundedOfCaptured", { captured: cents(row.payment?.captured_cents ?? 0) }),
  urgent: true,
})

export const DETAIL_OF: Record<AttentionKind, DetailOf> = {
  expiring: (row, _t, { dateTime, relativeTime }) => ({
    when: dateTime(row.expires_at),
    note: relativeTime(row.expires_at),
    urgent: true,
  }),
  paid_after_cancellation: paidAfterCancellation,
  paid_after_session_deleted: paidAfterCancellation,
  refund_mismatch: refundMismatch,
  amount_mismatch: lastCheck(false),
  unknown_payment: lastCheck(false),
  platform_error: lastCheck(true),
}

export const Detail = ({ when, note, urgent }: DetailLines) => (
  <div className="flex max-w-[360px] flex-col">
    <Text size="small" leading="compact">
      {when}
    </Text>
    <Text size="xsmall" leading="compact" className={urgent ? "text-ui-tag-orange-text" : "text-ui-fg-muted"}>
      {note}
    </Text>
  </div>
)
