import type { DeliveryStatus } from "../../../lib/refpay-api"

/** The outcomes in the filter's order, each with its badge colour (the label is the translation of its key). */
export const DELIVERY_STATUS_COLORS: Record<DeliveryStatus, "green" | "blue" | "orange" | "red" | "grey"> = {
  processed: "green",
  duplicate: "blue",
  unknown_payment: "orange",
  not_processed: "red",
  test: "grey",
}

export const DELIVERY_STATUSES = Object.keys(DELIVERY_STATUS_COLORS) as DeliveryStatus[]
