import type {
  AuthenticatedMedusaRequest,
  MedusaNextFunction,
  MedusaRequest,
  MedusaResponse,
} from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { asError } from "../../medusa-compat/runas-step-errors"
import { refpaySessionIdsForOrder, refpaySessionIdsOfPayment } from "../../queries/refpay-session-state"
import { refpayLockedRefundWorkflow } from "../../workflows/refpay-refund/locked-refund"
import { refpayLockedCancelOrderWorkflow } from "../../workflows/refpay-refund/locked-cancel-order"
import {
  refpayPaymentOfCanceledOrder,
  refundPaymentOfCanceledOrder,
  type MedusaRefundBody,
} from "./refund-cancelled-order-payment"

/**
 * Medusa's refund (`POST /admin/payments/:id/refund`) of a REFPAY payment whose order is cancelled: Medusa 2.21.2's
 * workflow would refund on the platform and then fail on the cancelled order, telling the shop owner "refused" for
 * money that went back. Done here without the credit-line step, answered as Medusa answers (`{ payment }`).
 */
export async function refpayRefundOfCanceledOrder(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const paymentId = String(req.params.id)
    const payment = await refpayPaymentOfCanceledOrder(req.scope, paymentId)
    if (!payment) return next()
    await refundPaymentOfCanceledOrder(req.scope, payment, refundBody(req), actorOf(req))
    res.status(200).json({ payment: await refetched(req, "payment", paymentId, REFUNDED_PAYMENT_FIELDS) })
  } catch (error) {
    next(asError(error))
  }
}

/**
 * Medusa's refund of a REFPAY payment of an open order: done here, by refpayLockedRefundWorkflow (Medusa's refund
 * under the session's lock), and answered as Medusa answers (`{ payment }`). Any other payment goes on to Medusa.
 */
export async function refpayLockedRefund(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const paymentId = String(req.params.id)
    const sessionIds = await refpaySessionIdsOfPayment(req.scope, paymentId)
    if (sessionIds.length === 0) return next()
    await refpayLockedRefundWorkflow(req.scope).run({
      input: {
        session_ids: sessionIds,
        refund: { payment_id: paymentId, created_by: actorOf(req), ...refundBody(req) },
      },
    })
    res.status(200).json({ payment: await refetched(req, "payment", paymentId, REFUNDED_PAYMENT_FIELDS) })
  } catch (error) {
    next(asError(error))
  }
}

/**
 * Medusa's cancellation of an order with REFPAY references: done here, by refpayLockedCancelOrderWorkflow (Medusa's
 * cancellation under the sessions' locks), and answered as Medusa answers (`{ order }`). Other orders go on to Medusa.
 */
export async function refpayLockedCancelOrder(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const orderId = String(req.params.id)
    const sessionIds = await refpaySessionIdsForOrder(req.scope, orderId)
    if (sessionIds.length === 0) return next()
    await refpayLockedCancelOrderWorkflow(req.scope).run({
      input: { order_id: orderId, canceled_by: actorOf(req), session_ids: sessionIds },
    })
    res.status(200).json({ order: await refetched(req, "order", orderId, ["*"]) })
  } catch (error) {
    next(asError(error))
  }
}

function actorOf(req: MedusaRequest): string | undefined {
  return (req as AuthenticatedMedusaRequest).auth_context?.actor_id
}

/**
 * Medusa's refund body (amount in major units, note, reason) as Medusa's own middleware of the route validated it
 * (`validateAndTransformBody(AdminCreatePaymentRefund)`, strict, 2.18 to 2.21): it runs before the plugin's
 * (medusa-compat/core-routes.ts), so the body is never parsed twice. Absent only if Medusa stopped validating it.
 */
function refundBody(req: MedusaRequest): MedusaRefundBody {
  const body = (req as MedusaRequest<MedusaRefundBody>).validatedBody
  if (!body) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      "Medusa's refund route did not validate its body before the REFPAY middleware (medusa-compat/core-routes.ts)"
    )
  }
  return body
}

/** What Medusa's refund route answers with by default. */
const REFUNDED_PAYMENT_FIELDS = ["*", "captures.*", "refunds.*", "refunds.refund_reason.*"]

/** The record as Medusa's own route answers it: the fields its query config asks for, else `fallback`. */
async function refetched(req: MedusaRequest, entity: "payment" | "order", id: string, fallback: string[]) {
  const fields = (req as MedusaRequest & { queryConfig?: { fields?: string[] } }).queryConfig?.fields ?? fallback
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity, fields, filters: { id } })
  return data[0]
}
