import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

/** A payment session's new data and, when it changes, its status. */
export interface SessionWrite {
  id: string
  data: Record<string, unknown>
  /** Left as it is when absent. */
  status?: string
}

/** The payment module's generated data-layer update, which its public type does not declare. */
type PaymentSessionWriter = IPaymentModuleService & { updatePaymentSessions(data: SessionWrite): Promise<unknown> }

/**
 * Writes a session's data (and status) without going through the provider: the payment module's
 * `updatePaymentSession` reads the session again and calls the provider's `updatePayment`, which may cancel a
 * reference, and bookkeeping must never be able to do that. The module's generated data-layer update does only the
 * write.
 */
export async function writeSession(container: MedusaContainer, write: SessionWrite): Promise<void> {
  await container.resolve<PaymentSessionWriter>(Modules.PAYMENT).updatePaymentSessions(write)
}
