import { Module } from "@medusajs/framework/utils"
import RefpayModuleService from "./service"

export const REFPAY_MODULE = "refpay"

export default Module(REFPAY_MODULE, { service: RefpayModuleService })

export { TEST_EVENT_ORDER_PREFIX } from "./webhook-deliveries"
export type { DeliveryFilter, DeliveryRow, DeliveryStatus } from "./webhook-deliveries"
export type { RecordedEvent, RecordEventInput } from "./webhook-ledger"
export type { CheckRecord, PaymentCheck, NewPaymentCheck } from "./payment-checks"
export type { TakenCheck, UnchangedCheck } from "./due-checks"
export type { RejectionKind, WebhookMalformed, WebhookRefusal } from "./webhook-rejections"
export type { WebhookRefusalReason, WebhookRoute } from "../../rules/webhook"
export type { RefpayModuleService }
