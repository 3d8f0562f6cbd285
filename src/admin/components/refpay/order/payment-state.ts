import type { RefpayPaymentView } from "../../../../rules/payment-view"
import type { Translate } from "../../../lib/format"

export type StateColor = "green" | "red" | "orange" | "grey"

/** The one line a shop owner reads first about a payment, and the warning that goes with it. */
export interface PaymentState {
  label: string
  color: StateColor
  warning?: string
}

export function describePayment(view: RefpayPaymentView, t: Translate): PaymentState {
  const label = (status: string) => t(`refpay.order.statuses.${status}`)
  const warning = (kind: string) => t(`refpay.order.warnings.${kind}`)
  switch (view.status) {
    case "paid":
      return view.do_not_ship
        ? { label: label("paid"), color: "green", warning: warning("paidButCancelled") }
        : { label: label("paid"), color: "green" }
    case "awaiting":
      return view.expired
        ? { label: label("expired"), color: "red", warning: warning("expiredUnpaid") }
        : { label: label("awaiting"), color: "orange", warning: warning("awaiting") }
    case "cancelled":
      return { label: label(view.expired ? "expired" : "cancelled"), color: "grey" }
    case "failed":
      return { label: label("failed"), color: "red", warning: warning("failed") }
  }
}
