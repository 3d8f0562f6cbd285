import type { MedusaContainer } from "@medusajs/framework/types"
import { REFPAY_MODULE, type RefpayModuleService } from "../modules/refpay"

/** What the shop owner sees of the last status check of a session: when, what came of it, and when the next is due. */
export interface LastCheckView {
  checked_at: string | null
  /** A sync action (record_check, capture, ...) or a failure: unknown_payment (the platform does not know it), platform_error. */
  outcome: string | null
  failures: number
  next_check_at: string | null
}

export async function loadLastCheck(container: MedusaContainer, sessionId: string): Promise<LastCheckView | null> {
  const check = await container.resolve<RefpayModuleService>(REFPAY_MODULE).getPaymentCheck(sessionId)
  if (!check) return null
  return {
    checked_at: check.last_checked_at ? new Date(check.last_checked_at).toISOString() : null,
    outcome: check.last_outcome,
    failures: check.failures,
    next_check_at: check.check_until ? new Date(check.next_check_at).toISOString() : null,
  }
}
