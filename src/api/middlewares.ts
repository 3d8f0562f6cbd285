import {
  defineMiddlewares,
  validateAndTransformBody,
  validateAndTransformQuery,
  type AuthenticatedMedusaRequest,
  type MedusaNextFunction,
  type MedusaRequest,
  type MedusaResponse,
} from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { assertRefpayOrderFulfillable } from "../rules/fulfilment-rules"
import { isRefpayProviderId } from "../rules/provider-ids"
import { door1Proof, DOOR1_PROOF_HEADER, SECRET_BEARING_HEADERS, webhookSecretMatches } from "../rules/webhook"
import { recordRefusedDelivery } from "../refpay-admin/webhook-refusal"
import { refpayPaymentOfCancelledOrder, refundPaymentOfCancelledOrder } from "../refpay-admin/refund-cancelled-order-payment"
import { refpayProviderFor } from "../workflows/refpay-sync/provider"
import { loadOrderCollections } from "../workflows/refpay-guard/load-collections"
import {
  AdminRefpayAttentionQuery,
  AdminRefpayDeliveriesQuery,
  AdminRefpayEmptyBody,
  AdminRefpayMedusaRefundBody,
  AdminRefpayRegistrationBody,
  AdminRefpayRegistrationQuery,
  AdminRefpaySearchQuery,
} from "./admin/refpay/validators"

/** Webhook bodies are small JSON events; anything over this is refused with 413 before it is read further. */
export const WEBHOOK_BODY_LIMIT = "64kb"

/** Refuses a fulfilment of an unpaid REFPAY order before any side effect (the workflow has no validate hook). */
async function refpayFulfilmentGuard(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    assertRefpayOrderFulfillable(await loadOrderCollections(req.scope, req.params.id))
    next()
  } catch (error) {
    next(error)
  }
}

/**
 * Medusa's refund (`POST /admin/payments/:id/refund`) of a REFPAY payment whose order is cancelled: Medusa 2.21.2's
 * workflow would refund on the platform and then fail on the cancelled order, telling the shop owner "refused" for
 * money that went back. Done here without the credit-line step, answered as Medusa answers (`{ payment }`).
 */
async function refpayRefundOfCancelledOrder(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const paymentId = String(req.params.id)
    const payment = await refpayPaymentOfCancelledOrder(req.scope, paymentId)
    if (!payment) return next()
    const parsed = AdminRefpayMedusaRefundBody.safeParse(req.body ?? {})
    if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid refund: ${parsed.error.issues.map((i) => i.message).join("; ")}`)
    const body = parsed.data
    await refundPaymentOfCancelledOrder(req.scope, payment, body, (req as AuthenticatedMedusaRequest).auth_context?.actor_id)
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({ entity: "payment", fields: REFUNDED_PAYMENT_FIELDS, filters: { id: paymentId } })
    res.status(200).json({ payment: data[0] })
  } catch (error) {
    next(error)
  }
}

/** What Medusa's refund route answers with by default. */
const REFUNDED_PAYMENT_FIELDS = ["*", "captures.*", "refunds.*", "refunds.refund_reason.*"]

/**
 * Door 1 (`POST /hooks/payment/refpay_<id>`): Medusa copies every header into its `payment.webhook_received` event.
 * The secret is checked here and replaced by a proof (an HMAC of the body), so it never travels with the event.
 * Medusa answers 200 whatever happens; a refused delivery is counted for the admin's REFPAY page.
 */
async function refpayDoor1Secret(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const provider = String(req.params.provider ?? "")
    const providerId = provider.startsWith("pp_") ? provider : `pp_${provider}`
    if (!isRefpayProviderId(providerId)) return next()
    // The secret of the registration the URL names (pp_refpay_<id>): one account's secret never opens another's door.
    const secret = refpayProviderFor(req.scope, providerId).settings.webhookSecret
    const matches = webhookSecretMatches(req.headers as Record<string, unknown>, secret)
    if (!matches) await recordRefusedDelivery(req.scope, "medusa", req.headers as Record<string, unknown>, providerId)
    for (const name of [...SECRET_BEARING_HEADERS, DOOR1_PROOF_HEADER]) delete req.headers[name]
    if (matches && secret) {
      req.headers[DOOR1_PROOF_HEADER] = door1Proof(secret, Buffer.from(JSON.stringify(req.body ?? null)))
    }
    next()
  } catch (error) {
    next(error)
  }
}

export default defineMiddlewares({
  routes: [
    {
      matcher: "/hooks/refpay",
      method: ["POST"],
      bodyParser: { preserveRawBody: true, sizeLimit: WEBHOOK_BODY_LIMIT },
    },
    {
      matcher: "/hooks/refpay/:id",
      method: ["POST"],
      bodyParser: { preserveRawBody: true, sizeLimit: WEBHOOK_BODY_LIMIT },
    },
    {
      matcher: "/hooks/payment/:provider",
      method: ["POST"],
      middlewares: [refpayDoor1Secret],
    },
    {
      matcher: "/admin/payments/:id/refund",
      method: ["POST"],
      middlewares: [refpayRefundOfCancelledOrder],
    },
    {
      matcher: "/admin/orders/:id/fulfillments",
      method: ["POST"],
      middlewares: [refpayFulfilmentGuard],
    },
    // The admin's REFPAY page (Medusa authenticates every /admin route as an admin user).
    {
      matcher: "/admin/refpay/settings",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayRegistrationQuery, {})],
    },
    {
      matcher: "/admin/refpay/connection-test",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminRefpayRegistrationBody)],
    },
    {
      matcher: "/admin/refpay/webhooks",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayRegistrationQuery, {})],
    },
    {
      matcher: "/admin/refpay/webhooks/test-event",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminRefpayRegistrationBody)],
    },
    {
      matcher: "/admin/refpay/webhooks/test-event/:payment_id",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayRegistrationQuery, {})],
    },
    {
      matcher: "/admin/refpay/late-payments/:session_id/refund",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminRefpayEmptyBody)],
    },
    {
      matcher: "/admin/refpay/webhooks/deliveries",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayDeliveriesQuery, {})],
    },
    {
      matcher: "/admin/refpay/attention/:kind",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayAttentionQuery, {})],
    },
    {
      matcher: "/admin/refpay/search",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpaySearchQuery, {})],
    },
  ],
})
