import {
  defineMiddlewares,
  validateAndTransformBody,
  validateAndTransformQuery,
  type AuthenticatedMedusaRequest,
  type MedusaNextFunction,
  type MedusaRequest,
  type MedusaResponse,
  type MiddlewareRoute,
} from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { assertRefpayOrderFulfillable } from "../rules/fulfillment-rules"
import { isRefpayProviderId } from "../rules/provider-ids"
import {
  medusaRouteProof,
  MEDUSA_ROUTE_PROOF_HEADER,
  SECRET_BEARING_HEADERS,
  webhookSecretMatches,
} from "../rules/webhook"
import { recordRefusedDelivery } from "../admin-backend/webhook-refusal"
import {
  refpayPaymentOfCanceledOrder,
  refundPaymentOfCanceledOrder,
} from "../admin-backend/refund-cancelled-order-payment"
import { refpayProviderFor } from "../providers/refpay/lookup"
import {
  assertNoUnrecordedPlatformRefund,
  refpaySessionIdsOfPayment,
  withRefpaySessionLocks,
} from "../admin-backend/money-route-locks"
import { refpaySessionIdsForOrder } from "../queries/refpay-session-state"
import { assertStoreMayReplaceSessions } from "../rules/placed-order-sessions"
import { isPlacedOrder, loadCollectionOfOrder, loadOrderCollections } from "../queries/order-collections"
import {
  AdminRefpayAttentionQuery,
  AdminRefpayDeliveriesQuery,
  AdminRefpayEmptyBody,
  AdminRefpayMedusaRefundBody,
  AdminRefpayRegistrationBody,
  AdminRefpayNumbersQuery,
  AdminRefpayRegistrationQuery,
  AdminRefpaySearchQuery,
  RefpayPaymentRequestBody,
} from "./admin/refpay/validators"
import { storePaymentCollectionRoutes } from "./store/refpay/payment-collections/payment-collection-middlewares"

/** Webhook bodies are small JSON events; anything over this is refused with 413 before it is read further. */
export const WEBHOOK_BODY_LIMIT = "64kb"

/** Refuses a fulfilment of an unpaid REFPAY order before any side effect (the workflow has no validate hook). */
async function refpayFulfillmentGuard(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
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
async function refpayRefundOfCanceledOrder(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const paymentId = String(req.params.id)
    const payment = await refpayPaymentOfCanceledOrder(req.scope, paymentId)
    if (!payment) return next()
    const parsed = AdminRefpayMedusaRefundBody.safeParse(req.body ?? {})
    if (!parsed.success)
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Invalid refund: ${parsed.error.issues.map((i) => i.message).join("; ")}`
      )
    const body = parsed.data
    await refundPaymentOfCanceledOrder(
      req.scope,
      payment,
      body,
      (req as AuthenticatedMedusaRequest).auth_context?.actor_id
    )
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "payment",
      fields: REFUNDED_PAYMENT_FIELDS,
      filters: { id: paymentId },
    })
    res.status(200).json({ payment: data[0] })
  } catch (error) {
    next(error)
  }
}

/**
 * Medusa's refund of a REFPAY payment (of an open order) and cancellation of an order with REFPAY payments run under
 * the sessions' sync locks until answered: a second refund, a webhook or a poll tick waits for them.
 */
async function refpayRefundLock(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const sessionIds = await refpaySessionIdsOfPayment(req.scope, String(req.params.id))
    await withRefpaySessionLocks(req.scope, sessionIds, res, next, async () => {
      for (const sessionId of sessionIds) await assertNoUnrecordedPlatformRefund(req.scope, sessionId)
    })
  } catch (error) {
    next(error)
  }
}

async function refpayOrderCancelLock(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    await withRefpaySessionLocks(req.scope, await refpaySessionIdsForOrder(req.scope, String(req.params.id)), res, next)
  } catch (error) {
    next(error)
  }
}

/** A store request never replaces the sessions of a placed order's collection while its REFPAY reference is live. */
async function refpayPlacedOrderSessions(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    assertStoreMayReplaceSessions(await loadCollectionOfOrder(req.scope, String(req.params.id)))
    next()
  } catch (error) {
    next(error)
  }
}

/** The store's REFPAY routes answer for placed orders only: a draft order is not found, as Medusa's own store route says. */
async function refpayStorePlacedOrder(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    if (!(await isPlacedOrder(req.scope, String(req.params.id))))
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${req.params.id} was not found`)
    next()
  } catch (error) {
    next(error)
  }
}

/** What Medusa's refund route answers with by default. */
const REFUNDED_PAYMENT_FIELDS = ["*", "captures.*", "refunds.*", "refunds.refund_reason.*"]

/**
 * Medusa's webhook route (`POST /hooks/payment/refpay_<id>`): Medusa copies every header into its
 * `payment.webhook_received` event. The secret is checked here and replaced by a proof (an HMAC of the body), so it
 * never travels with the event. Medusa answers 200 whatever happens; a refused delivery is counted for the admin's
 * REFPAY page.
 */
async function medusaRouteSecretCheck(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const provider = String(req.params.provider ?? "")
    const providerId = provider.startsWith("pp_") ? provider : `pp_${provider}`
    if (!isRefpayProviderId(providerId)) return next()
    // A registration the shop does not have: a generic 404, as the plugin's route answers (src/api/hooks/refpay); the
    // lookup's message (module path, medusa-config advice) is for the log, never for an anonymous caller.
    const registration = await refpayProviderFor(req.scope, providerId).catch((error: unknown) => {
      if (!(error instanceof MedusaError) || error.type !== MedusaError.Types.NOT_FOUND) throw error
      req.scope
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`REFPAY: a webhook delivery to ${req.originalUrl} was answered 404: ${error.message}`)
    })
    if (!registration) return void res.status(404).json({ type: "not_found", message: "Not found" })
    // The secret of the registration the URL names (pp_refpay_<id>): one account's secret never opens another's route.
    const secret = registration.settings.webhookSecret
    const matches = webhookSecretMatches(req.headers as Record<string, unknown>, secret)
    if (!matches) await recordRefusedDelivery(req.scope, "medusa", req.headers as Record<string, unknown>, providerId)
    for (const name of [...SECRET_BEARING_HEADERS, MEDUSA_ROUTE_PROOF_HEADER]) delete req.headers[name]
    if (matches && secret) {
      req.headers[MEDUSA_ROUTE_PROOF_HEADER] = medusaRouteProof(secret, Buffer.from(JSON.stringify(req.body ?? null)))
    }
    next()
  } catch (error) {
    next(error)
  }
}

/**
 * Who may press the REFPAY page's buttons: Medusa checks a route's `policies` when MEDUSA_FF_RBAC is on (and lets
 * everyone through when it is off). Named as Medusa 2.21.2's own routes name the same acts: a refund is
 * `refund:create` (its `POST /admin/payments/:id/refund`), a change to an order `order:update`, reading an order or a
 * payment `order:read` / `payment:read`, and the shop's own configuration the `store` resource. Spread into the
 * routes: 2.21.2 types `defineMiddlewares`' routes without `policies` (its `MiddlewareRoute` has them, and
 * `defineMiddlewares` passes them on).
 */
const REFPAY_POLICIES: Record<
  "readStore" | "useStore" | "readPayments" | "updateOrder" | "refund",
  Pick<MiddlewareRoute, "policies">
> = {
  readStore: { policies: [{ resource: "store", operation: "read" }] },
  useStore: { policies: [{ resource: "store", operation: "update" }] },
  readPayments: {
    policies: [
      { resource: "order", operation: "read" },
      { resource: "payment", operation: "read" },
    ],
  },
  updateOrder: { policies: [{ resource: "order", operation: "update" }] },
  refund: { policies: [{ resource: "refund", operation: "create" }] },
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
      middlewares: [medusaRouteSecretCheck],
    },
    {
      matcher: "/admin/payments/:id/refund",
      method: ["POST"],
      middlewares: [refpayRefundOfCanceledOrder, refpayRefundLock],
    },
    {
      matcher: "/admin/orders/:id/cancel",
      method: ["POST"],
      middlewares: [refpayOrderCancelLock],
    },
    {
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [refpayPlacedOrderSessions],
    },
    { matcher: "/store/refpay/orders/:id", method: ["GET"], middlewares: [refpayStorePlacedOrder] },
    { matcher: "/store/refpay/orders/:id/payment-requests", method: ["GET"], middlewares: [refpayStorePlacedOrder] },
    {
      matcher: "/store/refpay/orders/:id/payment-requests",
      method: ["POST"],
      middlewares: [refpayStorePlacedOrder, validateAndTransformBody(RefpayPaymentRequestBody)],
    },
    {
      matcher: "/admin/orders/:id/fulfillments",
      method: ["POST"],
      middlewares: [refpayFulfillmentGuard],
    },
    // The admin's REFPAY page (Medusa authenticates every /admin route as an admin user).
    {
      matcher: "/admin/refpay/settings",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayRegistrationQuery, {})],
      ...REFPAY_POLICIES.readStore,
    },
    {
      // The owner's numbers: conversion, recovered, reconciliation and the accountant's CSV export.
      matcher: "/admin/refpay/numbers/*",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayNumbersQuery, {})],
      ...REFPAY_POLICIES.readPayments,
    },
    {
      matcher: "/admin/refpay/connection-test",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminRefpayRegistrationBody)],
      ...REFPAY_POLICIES.useStore,
    },
    {
      matcher: "/admin/refpay/webhooks",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayRegistrationQuery, {})],
      ...REFPAY_POLICIES.readStore,
    },
    {
      matcher: "/admin/refpay/webhooks/test-event",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminRefpayRegistrationBody)],
      ...REFPAY_POLICIES.useStore,
    },
    {
      matcher: "/admin/refpay/webhooks/test-event/:payment_id",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayRegistrationQuery, {})],
      ...REFPAY_POLICIES.readStore,
    },
    {
      matcher: "/admin/refpay/late-payments/:session_id/refund",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminRefpayEmptyBody)],
      ...REFPAY_POLICIES.refund,
    },
    {
      matcher: "/admin/refpay/orders/:id/payment-requests",
      method: ["POST"],
      middlewares: [validateAndTransformBody(RefpayPaymentRequestBody)],
      ...REFPAY_POLICIES.updateOrder,
    },
    {
      matcher: "/admin/refpay/webhooks/deliveries",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayDeliveriesQuery, {})],
      ...REFPAY_POLICIES.readStore,
    },
    {
      matcher: "/admin/refpay/attention/:kind",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayAttentionQuery, {})],
      ...REFPAY_POLICIES.readPayments,
    },
    {
      matcher: "/admin/refpay/search",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpaySearchQuery, {})],
      ...REFPAY_POLICIES.readPayments,
    },
    // Routes with nothing else to declare than who may use them.
    { matcher: "/admin/refpay/attention", method: ["GET"], ...REFPAY_POLICIES.readPayments },
    { matcher: "/admin/refpay/orders/:id", method: ["GET"], ...REFPAY_POLICIES.readPayments },
    { matcher: "/admin/refpay/orders/:id/payment-requests", method: ["GET"], ...REFPAY_POLICIES.readPayments },
    { matcher: "/admin/refpay/orders/:id/sync", method: ["POST"], ...REFPAY_POLICIES.updateOrder },
    { matcher: "/admin/refpay/orders/:id/renew", method: ["POST"], ...REFPAY_POLICIES.updateOrder },
    // Medusa's payment link (/store/refpay/payment-collections/:id), declared beside its route.
    ...storePaymentCollectionRoutes,
  ],
})
