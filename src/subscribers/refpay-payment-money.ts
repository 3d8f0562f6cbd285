import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules, PaymentEvents } from "@medusajs/framework/utils"
import { refreshReferenceCopies } from "../medusa-compat/medusa-tables/reference-copies"
import { isRefpayProviderId } from "../rules/provider-ids"

/**
 * Medusa captured or refunded a payment, from whichever hand (the plugin's sync, the admin's refund, another
 * plugin): when it is a REFPAY payment, its check's copy of what the owner's numbers count (captured and refunded
 * cents) is refreshed at once, not at the payment's next check, which may never come once it is settled.
 */
export default async function refpayPaymentMoney({ event, container }: SubscriberArgs<{ id: string }>) {
  const payment = await container
    .resolve<IPaymentModuleService>(Modules.PAYMENT)
    .retrievePayment(event.data.id, { select: ["id", "provider_id"], relations: ["payment_session"] })
  const sessionId = payment.payment_session?.id
  if (!isRefpayProviderId(payment.provider_id) || !sessionId) return
  await refreshReferenceCopies(container, [sessionId])
}

export const config: SubscriberConfig = { event: [PaymentEvents.CAPTURED, PaymentEvents.REFUNDED] }
