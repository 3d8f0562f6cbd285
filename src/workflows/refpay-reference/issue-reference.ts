import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import {
  createStep,
  createWorkflow,
  StepResponse,
  transform,
  when,
  WorkflowResponse,
} from "@medusajs/framework/workflows-sdk"
import { claimCollection } from "../../rules/outstanding"
import { loadCollectionOfOrder } from "../../queries/order-collections"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"
import { scheduleReferenceChecksStep } from "./schedule-reference-checks"
import type { RefpaySessionData } from "../../rules/session-data"
import type { RefpaySessionState } from "../../queries/refpay-session-state"
import { writeSession } from "../refpay-sync/steps/session-write"

export interface IssueReferenceInput {
  payment_collection_id: string
  provider_id: string
  /** Major units, as Medusa stores the session amount. */
  amount: number
  currency_code: string
  customer: RefpaySessionData["customer"] | null
}

/**
 * The renewal of a session's reference: on the same payment collection, for what the collection asks for now (an
 * order edit may have changed it since the old reference was issued), with the customer details the old one had.
 */
export function renewalOf(state: RefpaySessionState): IssueReferenceInput {
  return {
    payment_collection_id: state.paymentCollectionId,
    provider_id: state.providerId,
    amount: state.collection.amount,
    currency_code: state.currencyCode,
    customer: state.data.customer ?? null,
  }
}

/**
 * A new REFPAY payment session on the order's own payment collection. Not Medusa's createPaymentSessionsWorkflow:
 * it deletes the collection's other sessions, and the expired reference's session must stay (a late settlement on
 * it is still recorded). Undone (the session deleted, its reference cancelled) if the reference cannot be issued.
 */
const createReferenceSessionStep = createStep(
  "refpay-create-reference-session",
  async (input: IssueReferenceInput, { container }) => {
    const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
    const session = await payments.createPaymentSession(input.payment_collection_id, {
      provider_id: input.provider_id,
      amount: input.amount,
      currency_code: input.currency_code,
      data: {},
      context: {},
    })
    // Marked as a reference being issued (a crash before the platform's answer is resumed by the poll job, and the
    // collection counts as taken meanwhile), with the cart's customer details as the first reference had them
    // (Medusa passes them only for logged-in customers).
    await writeSession(container, {
      id: session.id,
      data: {
        ...session.data,
        completion_started_at: new Date().toISOString(),
        ...(input.customer ? { customer: input.customer } : {}),
      },
      status: session.status,
    })
    return new StepResponse(session.id, session.id)
  },
  async (sessionId: string | undefined, { container }) => {
    if (sessionId) await container.resolve<IPaymentModuleService>(Modules.PAYMENT).deletePaymentSession(sessionId)
  }
)

/** Issues the reference: the provider creates it on the platform (identifiers derived from the session). */
const authorizeReferenceStep = createStep(
  "refpay-authorize-reference-session",
  async (sessionId: string, { container }) => {
    await container.resolve<IPaymentModuleService>(Modules.PAYMENT).authorizePaymentSession(sessionId, {})
    return new StepResponse(sessionId)
  }
)

/** What the collection holds now, read under its lock: the one read the decision to issue trusts. */
const claimCollectionStep = createStep(
  "refpay-claim-collection",
  async (input: { payment_collection_id: string }, { container }) => {
    const { sessions } = await loadCollectionOfOrder(container, input.payment_collection_id)
    return new StepResponse(
      claimCollection(
        sessions.map((s) => ({
          id: s.id,
          providerId: s.provider_id,
          status: s.status,
          hasReference: !!s.data?.refpay,
          issuing: !!s.data?.completion_started_at,
        }))
      )
    )
  }
)

/** The lock every path that issues a REFPAY reference on a payment collection holds while it does. */
export function refpayCollectionLockKey(paymentCollectionId: string): string {
  return `refpay:collection:${paymentCollectionId}`
}

export interface IssuedReference {
  /** The session whose reference the collection is to be paid with. */
  session_id: string
  /** False when the collection already had a payable (or paid) reference: that one stands, nothing was issued. */
  issued: boolean
}

export const issueRefpayReferenceWorkflowId = "refpay-issue-reference"

/**
 * A REFPAY reference on one of an order's payment collections, for what the collection asks for. Spec 3 rule 2's
 * "the merchant asks the customer for a new payment" (the expiry policy `renew`, the admin's "Issue a new
 * reference"), the reference that replaces one after an edit changed an unpaid order's total, and the reference
 * requested for an outstanding amount of a placed order.
 *
 * At most one payable reference per collection, whoever issues it: under the collection's lock (held, and renewed,
 * until the reference is issued, so a slow platform call never lets a second issuer in), the collection is read
 * again; a payable or paid reference there stands and nothing is issued; a session whose reference was being issued
 * when its server died is issued again (the platform replays its reference) instead of a new one beside it.
 */
export const issueRefpayReferenceWorkflow = createWorkflow(
  issueRefpayReferenceWorkflowId,
  (input: IssueReferenceInput) => {
    const lock = acquireLeasedLock(
      transform({ input }, ({ input }) => ({ key: refpayCollectionLockKey(input.payment_collection_id) }))
    )
    const claim = claimCollectionStep(input)
    const created = when("refpay-when-collection-free", { claim }, ({ claim }) => claim.kind === "create").then(() =>
      createReferenceSessionStep(input)
    )
    const sessionId = transform({ claim, created }, ({ claim, created }): string =>
      claim.kind === "create" ? created! : claim.sessionId
    )
    when("refpay-when-reference-to-issue", { claim }, ({ claim }) => claim.kind !== "taken").then(() => {
      scheduleReferenceChecksStep(authorizeReferenceStep(sessionId))
    })
    releaseLeasedLock(lock)
    return new WorkflowResponse(
      transform({ claim, sessionId }, ({ claim, sessionId }): IssuedReference => ({
        session_id: sessionId,
        issued: claim.kind !== "taken",
      }))
    )
  }
)
