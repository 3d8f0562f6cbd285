import { createOrderPaymentCollectionWorkflow } from "@medusajs/medusa/core-flows"
import { MedusaError } from "@medusajs/framework/utils"
import {
  createStep,
  createWorkflow,
  StepResponse,
  transform,
  when,
  WorkflowResponse,
} from "@medusajs/framework/workflows-sdk"
import { refpayProviderFor } from "../../providers/refpay/refpay-providers"
import type { ResolvedRefpayOptions } from "../../config"
import { amountLimitMessage, amountLimitRefusal, type AmountLimits } from "../../rules/amount-limits"
import { customerFromCart } from "../../rules/customer"
import { shopperSentence } from "../../rules/platform-errors"
import { fromCents } from "../../rules/money"
import {
  endedReferences,
  planPaymentRequest,
  STORE_REQUEST_REFUSALS,
  storeRequestRefusal,
  type PaymentRequestPlan,
} from "../../rules/outstanding"
import { isRefpayProviderId } from "../../rules/provider-ids"
import { requestedPaymentNotification } from "../../rules/payment-instructions"
import { buildPaymentView } from "../../rules/payment-view"
import type { RefpaySessionData } from "../../rules/session-data"
import { loadPaymentRequestContext, type PaymentRequestContext } from "../../queries/order-payment-requests"
import { loadRefpaySession } from "../../queries/refpay-session-state"
import { issueRefpayReferenceWorkflow, type IssueReferenceInput } from "../refpay-reference/issue-reference"
import { sendRefpayNotification } from "../refpay-notify/send-notification"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"

export interface RequestRefpayPaymentInput {
  order_id: string
  /** The collection to pay; without it, the order's open one, or a new one for what the order still owes. */
  payment_collection_id?: string
  /** Who asks: the shop owner decides; a customer (the store route) gets only what the shop's settings allow. */
  requested_by: "admin" | "customer"
}

export interface RequestRefpayPaymentOutput {
  payment_collection_id: string
  session_id: string
  /** False when the collection already had a reference that can still be paid (that one is answered). */
  issued: boolean
}

interface RequestPlan {
  plan: Exclude<PaymentRequestPlan, { kind: "refuse" }>
  /** The reference to issue, less the collection when it is still to be opened. */
  issue: Omit<IssueReferenceInput, "payment_collection_id"> & { amount: number }
  order: { id: string; display_id: number | string | null; email: string | null }
}

/** One payment request per order at a time: two at once (a double click, the storefront and the admin) get one reference. */
export const refpayPaymentRequestLockKey = (orderId: string) => `refpay-payment-request:${orderId}`

/** What the request pays and with which account; refused (404, 400) when the order owes nothing there. */
const planRefpayPaymentRequestStep = createStep(
  "refpay-plan-payment-request",
  async (input: RequestRefpayPaymentInput, { container }) => {
    const context = await loadPaymentRequestContext(container, input.order_id)
    const plan = planPaymentRequest(context.collections, context.outstandingCents, input.payment_collection_id)
    if (plan.kind === "refuse") {
      if (plan.reason === "not_found")
        throw new MedusaError(
          MedusaError.Types.NOT_FOUND,
          `Payment collection ${input.payment_collection_id} is not one of order ${input.order_id}'s`
        )
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Order ${input.order_id} has nothing to pay by REFPAY.`)
    }
    if (!context.providerId)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `REFPAY is not enabled on order ${input.order_id}'s region.`)
    if (plan.kind !== "existing") {
      const account = await refpayProviderFor(container, context.providerId)
      if (input.requested_by === "customer") assertStoreMayRequest(context, plan, account.settings)
      assertIssuable(account.amountLimits, plan.amountCents)
    }
    const { order } = context
    // Medusa's own amount of the collection (a new one is opened for what the order owes, in cents).
    const collection = context.collections.find((c) => c.id === collectionIdOf(plan))
    return new StepResponse<RequestPlan>({
      plan,
      issue: {
        provider_id: context.providerId,
        amount: collection?.amount ?? fromCents(plan.kind === "open_collection" ? plan.amountCents : 0),
        currency_code: collection?.currencyCode ?? order.currencyCode,
        customer: customerFromCart({
          email: order.email,
          billing_address: order.billingAddress,
          shipping_address: order.shippingAddress,
        }) as RefpaySessionData["customer"],
      },
      order: { id: order.id, display_id: order.displayId, email: order.email },
    })
  }
)

/** A difference outside the account's amount limits is explained, not attempted (no session, no platform call). */
function assertIssuable(limits: AmountLimits, amountCents: number) {
  const refusal = amountLimitRefusal(amountCents, limits)
  if (refusal)
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      shopperSentence(amountLimitMessage(refusal, "pt"), amountLimitMessage(refusal, "en"))
    )
}

/** A customer's request issues only what the shop lets the store issue (`storeRequestRefusal`); the admin decides the rest. */
function assertStoreMayRequest(
  context: PaymentRequestContext,
  plan: Exclude<PaymentRequestPlan, { kind: "refuse" | "existing" }>,
  settings: Pick<ResolvedRefpayOptions, "storePaymentRequests" | "expiryPolicy" | "maxRenewals">
) {
  const collection = context.collections.find((c) => c.id === collectionIdOf(plan))
  const refusal = storeRequestRefusal({
    setting: settings.storePaymentRequests,
    orderHasRefpayReference: context.collections.some((c) =>
      c.sessions.some((s) => isRefpayProviderId(s.providerId) && s.hasReference)
    ),
    endedReferences: collection ? endedReferences(collection) : 0,
    expiryPolicy: settings.expiryPolicy,
    maxRenewals: settings.maxRenewals,
  })
  if (refusal) {
    const { pt, en } = STORE_REQUEST_REFUSALS[refusal]
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, shopperSentence(pt, en))
  }
}

function collectionIdOf(plan: PaymentRequestPlan): string | null {
  return plan.kind === "existing" || plan.kind === "issue" ? plan.collectionId : null
}

/** The new reference by e-mail, like the checkout's: best effort, once per reference. */
const notifyRequestedReferenceStep = createStep(
  "refpay-notify-requested-reference",
  async (input: { sessionId: string; order: RequestPlan["order"] }, { container }) => {
    const session = await loadRefpaySession(container, input.sessionId)
    const view = session && buildPaymentView(session)
    const email = view && requestedPaymentNotification(view, input.order)
    if (email?.send) await sendRefpayNotification(container, email.notification)
    return new StepResponse(!!email?.send)
  }
)

export const requestRefpayPaymentWorkflowId = "refpay-request-payment"

/**
 * "Request payment by REFPAY" for an outstanding amount of a placed order (an edit that added to a paid order, a
 * claim or exchange with a difference due, an order created in the admin): a reference for exactly what the
 * collection asks for, on that collection, e-mailed to the customer. Under a per-order lock, and answering the
 * reference already waiting when there is one, so asking twice gives the same reference. The capture then lands on
 * that collection through the same sync as a checkout's reference (same expiry, renewal, reminder and late-payment
 * rules).
 */
export const requestRefpayPaymentWorkflow = createWorkflow(
  requestRefpayPaymentWorkflowId,
  (input: RequestRefpayPaymentInput) => {
    const lock = acquireLeasedLock(
      transform({ input }, ({ input }) => ({ key: refpayPaymentRequestLockKey(input.order_id) }))
    )
    const request = planRefpayPaymentRequestStep(input)

    const opened = when("refpay-when-no-collection", { request }, ({ request }) => {
      return request.plan.kind === "open_collection"
    }).then(() =>
      createOrderPaymentCollectionWorkflow.runAsStep({
        input: transform({ request }, ({ request }) => ({
          order_id: request.order.id,
          amount: request.issue.amount,
        })),
      })
    )
    const collectionId = transform({ request, opened }, ({ request, opened }): string => {
      return collectionIdOf(request.plan) ?? (opened as { id: string }[])[0].id
    })

    const issued = when("refpay-when-no-live-reference", { request }, ({ request }) => {
      return request.plan.kind !== "existing"
    }).then(() =>
      issueRefpayReferenceWorkflow.runAsStep({
        input: transform({ request, collectionId }, ({ request, collectionId }) => ({
          ...request.issue,
          payment_collection_id: collectionId,
        })),
      })
    )
    // A reference another path issued on the collection meanwhile was e-mailed by that path.
    when("refpay-when-reference-issued", { issued }, ({ issued }) => !!issued?.issued).then(() => {
      notifyRequestedReferenceStep({
        sessionId: transform({ issued }, ({ issued }) => issued!.session_id),
        order: request.order,
      })
    })
    releaseLeasedLock(lock)

    return new WorkflowResponse(
      transform({ request, collectionId, issued }, ({ request, collectionId, issued }): RequestRefpayPaymentOutput => {
        if (request.plan.kind === "existing")
          return { payment_collection_id: collectionId, session_id: request.plan.sessionId, issued: false }
        return { payment_collection_id: collectionId, session_id: issued!.session_id, issued: issued!.issued }
      })
    )
  }
)
