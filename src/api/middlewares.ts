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
import { CORE_ROUTES } from "../medusa-compat/core-routes"
import { asError } from "../medusa-compat/runas-step-errors"
import { assertRefpayOrderFulfillable } from "../rules/fulfillment-rules"
import { isRefpayProviderId, providerIdFromRoute } from "../rules/provider-ids"
import {
  medusaRouteProof,
  MEDUSA_ROUTE_PROOF_HEADER,
  SECRET_BEARING_HEADERS,
  webhookSecretMatches,
} from "../rules/webhook"
import { recordRefusedDelivery } from "../sync-triggers/webhook/refused-delivery"
import {
  refpayPaymentOfCanceledOrder,
  refundPaymentOfCanceledOrder,
} from "./medusa-routes/refund-cancelled-order-payment"
import { refpayProviderFor } from "../providers/refpay/refpay-providers"
import { refpaySessionIdsForOrder, refpaySessionIdsOfPayment } from "../queries/refpay-session-state"
import { refpayLockedRefundWorkflow } from "../workflows/refpay-refund/locked-refund"
import { refpayLockedCancelOrderWorkflow } from "../workflows/refpay-refund/locked-cancel-order"
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

/** One of Medusa's routes with the plugin's middlewares in front of it. */
function inFrontOf(
  route: (typeof CORE_ROUTES)[keyof typeof CORE_ROUTES],
  ...middlewares: MiddlewareRoute["middlewares"] & object
): MiddlewareRoute {
  return { matcher: route.matcher, method: [route.method], middlewares }
}

/** Webhook bodies are small JSON events; anything over this is refused with 413 before it is read further. */
export const WEBHOOK_BODY_LIMIT = "64kb"

/** Refuses a fulfilment of an unpaid REFPAY order before any side effect (the workflow has no validate hook). */
async function refpayFulfillmentGuard(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    assertRefpayOrderFulfillable(await loadOrderCollections(req.scope, req.params.id))
    next()
  } catch (error) {
    next(asError(error))
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
    await refundPaymentOfCanceledOrder(req.scope, payment, parsedRefundBody(req), actorOf(req))
    res.status(200).json({ payment: await refetched(req, "payment", paymentId, REFUNDED_PAYMENT_FIELDS) })
  } catch (error) {
    next(asError(error))
  }
}

/**
 * Medusa's refund of a REFPAY payment of an open order: done here, by refpayLockedRefundWorkflow (Medusa's refund
 * under the session's lock), and answered as Medusa answers (`{ payment }`). Any other payment goes on to Medusa.
 */
async function refpayLockedRefund(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const paymentId = String(req.params.id)
    const sessionIds = await refpaySessionIdsOfPayment(req.scope, paymentId)
    if (sessionIds.length === 0) return next()
    const body = parsedRefundBody(req)
    await refpayLockedRefundWorkflow(req.scope).run({
      input: {
        session_ids: sessionIds,
        refund: { payment_id: paymentId, created_by: actorOf(req), ...body },
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
async function refpayLockedCancelOrder(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
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

/** Medusa's refund body, as its route takes it (amount in major units, note, reason). */
function parsedRefundBody(req: MedusaRequest) {
  const parsed = AdminRefpayMedusaRefundBody.safeParse(req.body ?? {})
  if (!parsed.success)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Invalid refund: ${parsed.error.issues.map((i) => i.message).join("; ")}`
    )
  return parsed.data
}

/** The record as Medusa's own route answers it: the fields its query config asks for, else `fallback`. */
async function refetched(req: MedusaRequest, entity: "payment" | "order", id: string, fallback: string[]) {
  const fields = (req as MedusaRequest & { queryConfig?: { fields?: string[] } }).queryConfig?.fields ?? fallback
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity, fields, filters: { id } })
  return data[0]
}

/** A store request never replaces the sessions of a placed order's collection while its REFPAY reference is live. */
async function refpayPlacedOrderSessions(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    assertStoreMayReplaceSessions(await loadCollectionOfOrder(req.scope, String(req.params.id)))
    next()
  } catch (error) {
    next(asError(error))
  }
}

/** The store's REFPAY routes answer for placed orders only: a draft order is not found, as Medusa's own store route says. */
async function refpayStorePlacedOrder(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    if (!(await isPlacedOrder(req.scope, String(req.params.id))))
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${req.params.id} was not found`)
    next()
  } catch (error) {
    next(asError(error))
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
    const providerId = providerIdFromRoute(String(req.params.provider ?? ""))
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
    next(asError(error))
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
    // In front of Medusa's own routes (a reliance: medusa-compat/core-routes.ts).
    inFrontOf(CORE_ROUTES.webhook, medusaRouteSecretCheck),
    inFrontOf(CORE_ROUTES.refund, refpayRefundOfCanceledOrder, refpayLockedRefund),
    inFrontOf(CORE_ROUTES.cancelOrder, refpayLockedCancelOrder),
    inFrontOf(CORE_ROUTES.storeSessions, refpayPlacedOrderSessions),
    inFrontOf(CORE_ROUTES.fulfil, refpayFulfillmentGuard),
    { matcher: "/store/refpay/orders/:id", method: ["GET"], middlewares: [refpayStorePlacedOrder] },
    { matcher: "/store/refpay/orders/:id/payment-requests", method: ["GET"], middlewares: [refpayStorePlacedOrder] },
    {
      matcher: "/store/refpay/orders/:id/payment-requests",
      method: ["POST"],
      middlewares: [refpayStorePlacedOrder, validateAndTransformBody(RefpayPaymentRequestBody)],
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
