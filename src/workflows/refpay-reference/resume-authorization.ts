import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { authorizePaymentSessionStep } from "@medusajs/medusa/core-flows"
import { isInterruptedCompletion, RESUME_AFTER_MS } from "../../rules/interrupted-completion"
import { refpaySessionLockKey } from "../refpay-sync/session-lock"
import { refpayCollectionLockKey } from "./issue-reference"
import { acquireLeasedLock, releaseLeasedLock } from "../locks/leased-lock"

/**
 * The last step of Medusa's cart completion, run again for a session whose completion was interrupted: Medusa's own
 * `authorizePaymentSessionStep` calls the provider's authorizePayment (the platform replays the reference created
 * for this session) and records the session as `pending_authorization` with the reference.
 */
export const resumeRefpayAuthorizationWorkflow = createWorkflow(
  "refpay-resume-authorization",
  (input: { sessionId: string; collectionId: string }) => {
    // The collection's lock too: a reference is issued on it here, and no other path may issue one meanwhile. A short
    // wait: a session busy elsewhere is resumed at the next run.
    const lock = acquireLeasedLock(
      transform({ input }, ({ input }) => ({
        key: [refpaySessionLockKey(input.sessionId), refpayCollectionLockKey(input.collectionId)],
        waitSeconds: RESUME_LOCK_WAIT_SECONDS,
      }))
    )
    const payment = authorizePaymentSessionStep({ id: input.sessionId, context: {} })
    releaseLeasedLock(lock)
    return new WorkflowResponse(payment)
  }
)

/** How long a resume waits for its locks: the poll job tries again at its next run. */
const RESUME_LOCK_WAIT_SECONDS = 5

/** Sessions one run reads for interrupted completions at the most. */
const RESUME_BATCH = 500

/**
 * Finds the account's sessions left `pending` by an interrupted completion (see `isInterruptedCompletion`) and
 * resumes each under the session's lock; one that fails is logged and tried again at the next run. Only sessions
 * last changed within `lookBackMs` are read (a reference older than that could no longer be paid), so the carts
 * abandoned at the payment step over a shop's lifetime do not make every run slower.
 */
export async function resumeInterruptedCompletions(
  container: MedusaContainer,
  providerId: string,
  now: Date,
  lookBackMs: number
): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "updated_at", "data", "payment_collection_id", "payment_collection.order.id"],
    filters: {
      provider_id: providerId,
      status: "pending",
      updated_at: { $lte: new Date(now.getTime() - RESUME_AFTER_MS), $gt: new Date(now.getTime() - lookBackMs) },
    },
    // Bounded: the oldest first; a larger backlog (a crash in the middle of a checkout rush) is taken over the next runs.
    pagination: { take: RESUME_BATCH, order: { updated_at: "ASC" } },
  })
  type Row = {
    id: string
    status: string
    updated_at: string | Date
    data?: Record<string, unknown> | null
    payment_collection_id: string
    payment_collection?: { order?: { id: string } | null } | null
  }
  const interrupted = (data as Row[]).filter((row) =>
    isInterruptedCompletion(
      {
        status: row.status,
        orderId: row.payment_collection?.order?.id ?? null,
        updatedAt: new Date(row.updated_at),
        completionStarted: !!row.data?.completion_started_at,
      },
      now
    )
  )
  const resumed: string[] = []
  for (const { id: sessionId, payment_collection_id } of interrupted) {
    try {
      await resumeRefpayAuthorizationWorkflow(container).run({
        input: { sessionId, collectionId: payment_collection_id },
      })
      logger.info(
        `REFPAY poll: session ${sessionId} of a placed order was never authorised (its checkout was interrupted): authorised now`
      )
      resumed.push(sessionId)
    } catch (error) {
      logger.warn(`REFPAY poll: session ${sessionId} of a placed order not authorised yet: ${(error as Error).message}`)
    }
  }
  return resumed
}
