import type { IPaymentModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { isRefpayProviderId } from "../../providers/refpay/registry"
import { refpayProvider } from "../refpay-sync/provider"

export interface CancelRefpaySessionsInput {
  order_id: string
}

interface SessionRow {
  id: string
  provider_id: string
  status: string
  amount: number
  currency_code: string
  data: Record<string, unknown> | null
}

/**
 * Cancels the platform reference of every REFPAY session of an order that is still waiting for the customer, and
 * marks the session canceled. Medusa's order cancellation does not do it: a `pending_authorization` session has
 * no Payment record, so core never calls the provider. A reference already cancelled or expired is success; a
 * paid one is left alone and reported (a payment after cancellation is never dropped).
 */
export const cancelRefpaySessionsStep = createStep(
  "cancel-refpay-sessions",
  async (input: CancelRefpaySessionsInput, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
    const { data: orders } = await query.graph({
      entity: "order",
      fields: [
        "id",
        "payment_collections.payment_sessions.id",
        "payment_collections.payment_sessions.provider_id",
        "payment_collections.payment_sessions.status",
        "payment_collections.payment_sessions.amount",
        "payment_collections.payment_sessions.currency_code",
        "payment_collections.payment_sessions.data",
      ],
      filters: { id: input.order_id },
    })
    const sessions = (orders[0]?.payment_collections ?? [])
      .flatMap((collection: any) => (collection?.payment_sessions ?? []) as SessionRow[])
      .filter((s: SessionRow) => isRefpayProviderId(s.provider_id) && s.status === "pending_authorization" && s.data?.refpay)

    const cancelled: string[] = []
    const provider = sessions.length > 0 ? await refpayProvider(container) : undefined
    for (const session of sessions) {
      const { data } = await provider!.cancelPayment({ data: session.data ?? {} })
      await payments.updatePaymentSession({
        id: session.id,
        data: data ?? {},
        amount: session.amount,
        currency_code: session.currency_code,
        status: "canceled",
      })
      cancelled.push(session.id)
    }
    return new StepResponse({ cancelled })
  }
)
