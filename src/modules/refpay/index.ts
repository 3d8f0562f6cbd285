import { Module } from "@medusajs/framework/utils"
import RefpayModuleService from "./service"

export const REFPAY_MODULE = "refpay"

export default Module(REFPAY_MODULE, { service: RefpayModuleService })

export { TEST_EVENT_ORDER_PREFIX } from "./service"
export type {
  CheckRecord,
  UnchangedCheck,
  DeliveryFilter,
  DeliveryRow,
  DeliveryStatus,
  PaymentCheck,
  RecordedEvent,
  RecordEventInput,
  TakenCheck,
  WebhookMalformed,
  WebhookRefusal,
  WebhookRefusalReason,
} from "./service"
export type { RefpayModuleService }
