import {
  defineMiddlewares,
  validateAndTransformBody,
  validateAndTransformQuery,
  type MiddlewareRoute,
} from "@medusajs/framework/http"
import { CORE_ROUTES } from "../medusa-compat/core-routes"
import {
  AdminRefpayAttentionQuery,
  AdminRefpayDeliveriesQuery,
  AdminRefpayEmptyBody,
  AdminRefpayAccountBody,
  AdminRefpayNumbersQuery,
  AdminRefpayAccountQuery,
  AdminRefpaySearchQuery,
  RefpayPaymentRequestBody,
} from "./admin/refpay/validators"
import {
  refpayLockedCancelOrder,
  refpayLockedRefund,
  refpayRefundOfCanceledOrder,
} from "./medusa-routes/locked-money-routes"
import { refpayFulfillmentGuard, refpayPlacedOrderSessions } from "./medusa-routes/order-guards"
import { medusaRouteSecretCheck } from "./medusa-routes/webhook-secret-check"
import { refpayStorePlacedOrder } from "./store/refpay/orders/placed-order-only"
import { storePaymentCollectionRoutes } from "./store/refpay/payment-collections/payment-collection-middlewares"

/**
 * Every route the plugin declares middlewares for: its webhook routes' raw body, the guards in front of Medusa's own
 * routes (./medusa-routes), its store routes, and its admin routes' validators and policies (validators next to the
 * routes, in ./admin/refpay/validators.ts).
 */

/** One of Medusa's routes with the plugin's middlewares in front of it. */
function inFrontOf(
  route: (typeof CORE_ROUTES)[keyof typeof CORE_ROUTES],
  ...middlewares: MiddlewareRoute["middlewares"] & object
): MiddlewareRoute {
  return { matcher: route.matcher, method: [route.method], middlewares }
}

/** Webhook bodies are small JSON events; anything over this is refused with 413 before it is read further. */
export const WEBHOOK_BODY_LIMIT = "64kb"

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
      middlewares: [validateAndTransformQuery(AdminRefpayAccountQuery, {})],
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
      middlewares: [validateAndTransformBody(AdminRefpayAccountBody)],
      ...REFPAY_POLICIES.useStore,
    },
    {
      matcher: "/admin/refpay/webhooks",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayAccountQuery, {})],
      ...REFPAY_POLICIES.readStore,
    },
    {
      matcher: "/admin/refpay/webhooks/test-event",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminRefpayAccountBody)],
      ...REFPAY_POLICIES.useStore,
    },
    {
      matcher: "/admin/refpay/webhooks/test-event/:payment_id",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminRefpayAccountQuery, {})],
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
