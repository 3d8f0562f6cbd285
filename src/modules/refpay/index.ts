import { Module } from "@medusajs/framework/utils"
import RefpayModuleService from "./service"

export const REFPAY_MODULE = "refpay"

export default Module(REFPAY_MODULE, { service: RefpayModuleService })

export type { CheckRecord, PaymentCheck, RecordedEvent, RecordEventInput } from "./service"
export type { RefpayModuleService }
