import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, MedusaError } from "@medusajs/framework/utils"
import { createRefpayClient, RefpayConflictError, type RefpayClient, type RefpayPaymentStatus } from "../../lib/refpay"
import type { AmountLimits } from "../../rules/amount-limits"
import { assertWithinAmountLimits } from "../../rules/checkout-rules"
import { customerForPlatform, snapshotCustomer } from "../../rules/customer"
import { cancellationKeyFor, creationKeyFor, orderIdFor, paymentIdFor, refundKeyFor } from "../../rules/identifiers"
import { toCents, toWholeCents } from "../../rules/money"
import { answeredRefundKeys, decideRefund, platformRefunds } from "../../rules/refunds"
import { clientConfigOf } from "./client-config"
import { medusaRefundId } from "../../medusa-compat/refund-before-provider"
import { platformRefundBeingRecorded } from "../../medusa-compat/refund-recording-context"
import { answerIntroduction } from "../../medusa-compat/provider-registry"
import {
  RefpayOptionsError,
  resolveOptions,
  type RefpayProviderOptions,
  type ResolvedRefpayOptions,
} from "../../config"
import { toMedusaError } from "../../rules/platform-errors"
import {
  NO_BOOKKEEPING,
  readSessionData,
  referenceFromCreation,
  referenceWithStatus,
  type RefpayReference,
  type RefpaySessionData,
} from "../../rules/session-data"
import { interpretStatus } from "../../rules/status"

type Cradle = { logger: Logger }

/**
 * REFPAY reference payments as a Medusa payment provider (`pp_refpay_refpay` when registered with id "refpay").
 *
 * The flow is asynchronous: the reference is created when the cart completes and reported as
 * `pending_authorization`, so Medusa creates the order while the customer has not paid yet. Every later call
 * (Medusa re-authorising on a webhook, a capture, a status check) asks the platform for the truth rather than
 * trusting stored state or an incoming event. Each method maps one Medusa hook to the platform client.
 */
export class RefpayProviderService extends AbstractPaymentProvider<RefpayProviderOptions> {
  static identifier = "refpay"

  protected readonly options_: ResolvedRefpayOptions
  protected readonly logger_: Logger
  protected readonly client_: RefpayClient

  static validateOptions(options: Record<string, unknown>): void {
    try {
      resolveOptions(options as RefpayProviderOptions)
    } catch (error) {
      if (error instanceof RefpayOptionsError) throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
      throw error
    }
  }

  constructor(cradle: Cradle, options: RefpayProviderOptions) {
    super(cradle, options)
    this.logger_ = cradle.logger
    this.options_ = resolveOptions(options)
    this.client_ = createRefpayClient({ ...clientConfigOf(this.options_), logger: this.logger_ })
  }

  /** The platform client, for the plugin's routes, jobs and workflows that sync payments. */
  get client(): RefpayClient {
    return this.client_
  }

  get settings(): Readonly<ResolvedRefpayOptions> {
    return this.options_
  }

  /** The amounts this registration issues references for, read from its settings on every call. */
  get amountLimits(): AmountLimits {
    return { minCents: this.options_.minAmountCents, maxCents: this.options_.maxAmountCents }
  }

  /** REFPAY has no stored payment methods (each payment gets its own reference). */
  async listPaymentMethods(): Promise<[]> {
    return []
  }

  /**
   * Checks the currency and the amount limits, and fixes the amount in cents; the reference itself is created at
   * authorisation. A refusal here is the earliest a storefront can show it: when the shopper picks REFPAY.
   */
  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    assertEuro(input.currency_code)
    const amountCents = toCents(input.amount)
    assertWithinAmountLimits(amountCents, this.amountLimits)
    const sessionId = String(input.data?.session_id ?? input.context?.idempotency_key ?? "")
    if (!sessionId) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "REFPAY: the payment session id is missing")
    }
    // Every key we own is written here, so nothing a storefront put in `data` can stand in for ours.
    const data: RefpaySessionData = {
      session_id: sessionId,
      amount_cents: amountCents,
      currency_code: "eur",
      generation: 0,
      customer: snapshotCustomer(input.context?.customer),
      refpay: null,
      ...NO_BOOKKEEPING,
    }
    return { id: sessionId, data, status: "pending" }
  }

  /**
   * At cart completion: creates the reference (idempotently: identifiers derive from the session) and reports
   * `pending_authorization`. Called again later (Medusa does this when a webhook arrives), it reports the platform's
   * current status instead. The amount limits are checked again right before the platform is called: whoever asks
   * (Medusa's completion, the poll job resuming one, a renewal), and whatever `updatePayment` did to the amount since
   * the session was created, no reference is issued outside them.
   */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const data = readSessionData(input.data)
    if (data.refpay) return this.syncedOutput(data)
    assertWithinAmountLimits(data.amount_cents, this.amountLimits)
    const reference = await this.createReference(data)
    const status = interpretStatus(reference.status)
    this.warnIfUnknown(status.known, reference)
    return { status: status.session, data: { ...data, refpay: reference } }
  }

  /** Succeeds only once the platform says the customer paid; a capture never moves money by itself here. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const data = readSessionData(input.data)
    const synced = await this.sync(data)
    const status = interpretStatus(synced.refpay!.status)
    if (status.outcome === "paid" && paidAmountMatches(synced)) return { data: synced }
    if (status.outcome === "paid") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `REFPAY payment cannot be captured: the platform reports ${synced.refpay!.amount} cents paid for an order of ` +
          `${synced.amount_cents} cents. Check the payment on the platform.`
      )
    }
    if (status.outcome === "awaiting") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `REFPAY payment not received yet: the customer has not paid reference ${synced.refpay!.reference} ` +
          `(entity ${synced.refpay!.entity}). It is captured automatically when the platform confirms the payment.`
      )
    }
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `REFPAY payment cannot be captured: the platform reports it as ${synced.refpay!.status}.`
    )
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return { data: await this.cancelReference(readSessionData(input.data)) }
  }

  /** A replaced session: its reference, if any, must not stay payable. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const data = readSessionData(input.data)
    if (!data.refpay) return { data }
    return { data: await this.cancelReference(data) }
  }

  /**
   * Refunds through the platform's cancel/refund call, under an idempotency key derived from Medusa's refund id. The
   * platform's refund records decide (`decideRefund`): a refund it already holds under this key is success without a
   * second call ("already refunded" is success, as in Medusa's Stripe provider); a refund the sync is recording (one
   * the platform made by itself) is recorded, not made again; more than the platform can still refund, or a fraction
   * of a cent, is refused before it is called. A refund the platform answered with success (or was found holding) has
   * its key recorded in the payment's data (`refund_keys`), so no sync takes it for one cut short when a later status
   * read does not list it (interruptedRefunds). Every plugin route and Medusa's refund and cancel routes call this
   * under the session's lock (src/api/middlewares.ts), so two refunds never interleave here.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = readSessionData(input.data)
    if (!data.refpay) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "REFPAY: this payment has no reference to refund")
    }
    const cents = toWholeCents(input.amount)
    const medusaKey = medusaRefundId(input)
    if (!medusaKey) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "REFPAY: a refund needs Medusa's idempotency key")
    }
    const paymentId = data.refpay.payment_id
    const key = refundKeyFor(paymentId, medusaKey)
    const { data: before, status } = await this.read(data)
    const recordedKeys = before.refund_keys ?? []
    const decision = decideRefund(
      { cents, key, recording: platformRefundBeingRecorded(paymentId), recordedKeys },
      {
        amountCents: status.amountCents,
        refundedCents: status.refundedAmountCents,
        refunds: platformRefunds(status.records),
      }
    )
    switch (decision.kind) {
      case "already_made":
        this.logger_.info(
          `REFPAY: refund of ${cents} cents for payment ${paymentId} already made on the platform; recorded`
        )
        return { data: { ...before, refund_keys: answeredRefundKeys(recordedKeys, key) } }
      case "record":
        return {
          data: {
            ...before,
            refund_keys: [...recordedKeys, decision.key],
            recording_refund_ids: [...(before.recording_refund_ids ?? []), medusaKey],
          },
        }
      case "refuse":
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, decision.why)
      case "make": {
        const made = await this.makeRefund(before, cents, key)
        return { data: { ...made, refund_keys: answeredRefundKeys(made.refund_keys, key) } }
      }
    }
  }

  /** Sends a refund; when the answer is lost, the platform's records say whether it was made. */
  private async makeRefund(data: RefpaySessionData, cents: number, key: string): Promise<RefpaySessionData> {
    const reference = data.refpay!
    try {
      const result = await this.client_.cancelOrRefund({
        paymentId: reference.payment_id,
        amountCents: cents,
        idempotencyKey: key,
      })
      const refunded = result.refundedAmountCents ?? reference.refunded_cents + cents
      return { ...data, refpay: { ...reference, status: result.status ?? reference.status, refunded_cents: refunded } }
    } catch (error) {
      const after = await this.read(data).catch(() => null)
      if (after && platformRefunds(after.status.records).some((r) => r.key === key)) return after.data
      throw this.fail(error, `refund ${cents} cents`)
    }
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = readSessionData(input.data)
    if (!data.refpay) return { status: "pending", data }
    return this.syncedOutput(data)
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const data = readSessionData(input.data)
    return { data: data.refpay ? await this.sync(data) : data }
  }

  /**
   * A new amount on a session that already has a reference: that reference is cancelled on the platform and
   * cleared, and the next authorisation creates a new one (new identifiers). A reference is never left payable
   * for an amount the order no longer has.
   */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    assertEuro(input.currency_code)
    const data = readSessionData(input.data)
    const amountCents = toCents(input.amount)
    const customer = snapshotCustomer(input.context?.customer) ?? data.customer
    if (amountCents === data.amount_cents)
      return { data: { ...data, customer }, status: data.refpay ? undefined : "pending" }
    if (!data.refpay) return { data: { ...data, amount_cents: amountCents, customer }, status: "pending" }
    const cancelled = await this.cancelReference(data)
    this.logger_.info(
      `REFPAY: amount of session ${data.session_id} changed from ${data.amount_cents} to ${amountCents} cents; ` +
        `reference ${cancelled.refpay!.reference} cancelled, a new one will be created`
    )
    const next = { ...data, amount_cents: amountCents, customer, generation: data.generation + 1, refpay: null }
    return { data: next, status: "pending" }
  }

  /**
   * Medusa's webhook route (`POST /hooks/payment/refpay_refpay`). Medusa's core subscriber would run its payment
   * workflow on what this returns, outside the plugin's session lock and without the session's amount at hand. The
   * plugin's own `payment.webhook_received` subscriber handles the same event through the locked sync (authentication,
   * the platform's record tied to the session, amount check), so core is told there is nothing for it to do. The
   * plugin's own introduction (registry.ts) arrives here too: the provider hands itself over.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    answerIntroduction(payload, this)
    return { action: "not_supported" }
  }

  private async createReference(data: RefpaySessionData): Promise<RefpayReference> {
    let orderId: string
    try {
      orderId = orderIdFor(data.session_id, data.generation)
    } catch (error) {
      throw this.fail(error, "create a payment reference")
    }
    const paymentId = paymentIdFor(data.session_id, data.generation)
    try {
      const created = await this.client_.createPayment({
        paymentId,
        orderId,
        amountCents: data.amount_cents,
        idempotencyKey: creationKeyFor(data.session_id, data.generation),
        customer: customerForPlatform(data.customer),
      })
      if (created.amountCents !== data.amount_cents) {
        // Never show a customer a reference for another amount than the order's.
        throw new MedusaError(
          MedusaError.Types.UNEXPECTED_STATE,
          `REFPAY returned ${created.amountCents} cents for a payment of ${data.amount_cents} cents; reference not used`
        )
      }
      this.logger_.info(`REFPAY: reference created for session ${data.session_id} (payment ${paymentId})`)
      return referenceFromCreation(created, orderId, this.options_.expiryDays, new Date())
    } catch (error) {
      if (error instanceof RefpayConflictError && error.code === "DUPLICATE_PAYMENT_ID") {
        // Created earlier under the same identifiers, with a lost answer: adopt it if it is this payment.
        return this.adoptExisting(paymentId, orderId, data)
      }
      throw this.fail(error, "create a payment reference")
    }
  }

  private async adoptExisting(paymentId: string, orderId: string, data: RefpaySessionData): Promise<RefpayReference> {
    const status = await this.client_.getPayment(paymentId).catch((e) => {
      throw this.fail(e, "read the existing payment reference")
    })
    if (status.amountCents !== data.amount_cents || !status.entity || !status.reference) {
      const conflict = new MedusaError(
        MedusaError.Types.UNEXPECTED_STATE,
        `REFPAY payment ${paymentId} already exists with other details; start a new payment session`
      )
      throw this.fail(conflict, "adopt the existing payment reference")
    }
    const now = new Date()
    const createdAt = status.receivedAt ?? now.toISOString()
    return referenceWithStatus(
      {
        payment_id: paymentId,
        order_id: status.orderId ?? orderId,
        entity: status.entity,
        reference: status.reference,
        amount: status.amount ?? String(data.amount_cents),
        amount_cents: data.amount_cents,
        currency: "EUR",
        status: status.status,
        created_at: createdAt,
        expires_at: new Date(Date.parse(createdAt) + this.options_.expiryDays * 86_400_000).toISOString(),
        refunded_cents: 0,
        checked_at: now.toISOString(),
      },
      status,
      now
    )
  }

  /** The session data with the platform's current status of its reference. */
  private async sync(data: RefpaySessionData): Promise<RefpaySessionData> {
    return (await this.read(data)).data
  }

  /** The platform's status read of the session's reference, and the session data updated from it. */
  private async read(data: RefpaySessionData): Promise<{ data: RefpaySessionData; status: RefpayPaymentStatus }> {
    try {
      const status = await this.client_.getPayment(data.refpay!.payment_id)
      return { data: { ...data, refpay: referenceWithStatus(data.refpay!, status, new Date()) }, status }
    } catch (error) {
      throw this.fail(error, "read the payment status")
    }
  }

  /** The platform's status as Medusa's: a payment for another amount than the session's never reads as paid. */
  private async syncedOutput(data: RefpaySessionData): Promise<AuthorizePaymentOutput> {
    const synced = await this.sync(data)
    const status = interpretStatus(synced.refpay!.status)
    this.warnIfUnknown(status.known, synced.refpay!)
    if (status.outcome === "paid" && !paidAmountMatches(synced)) {
      this.logger_.warn(
        `REFPAY: payment ${synced.refpay!.payment_id} reported paid for ${synced.refpay!.amount} cents, the session is for ` +
          `${synced.amount_cents}; not treated as paid`
      )
      return { status: "pending_authorization", data: synced }
    }
    return { status: status.session, data: synced }
  }

  /**
   * Cancels a WAITING reference; one already cancelled or expired is success. A paid one is never cancelled. The
   * answer says what the platform did: if the customer's payment landed between our status read and the call, the
   * platform refunded it instead, and the returned data says so (APPROVED, refunded) for the caller to record.
   */
  private async cancelReference(data: RefpaySessionData): Promise<RefpaySessionData> {
    if (!data.refpay) return data
    const synced = await this.sync(data)
    const reference = synced.refpay!
    const outcome = interpretStatus(reference.status).outcome
    if (outcome === "cancelled" || outcome === "failed") return synced
    if (outcome === "paid") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `REFPAY reference ${reference.reference} has already been paid; refund the payment instead of cancelling it`
      )
    }
    try {
      const result = await this.client_.cancelOrRefund({
        paymentId: reference.payment_id,
        amountCents: reference.amount_cents,
        idempotencyKey: cancellationKeyFor(reference.payment_id),
      })
      const status = result.status ?? "CANCELLED"
      const refunded = result.refundedAmountCents ?? reference.refunded_cents
      if (interpretStatus(status).outcome === "paid") {
        this.logger_.warn(
          `REFPAY: payment ${reference.payment_id} was paid as it was being cancelled; the platform refunded ${refunded} cents`
        )
      } else {
        this.logger_.info(`REFPAY: reference for payment ${reference.payment_id} cancelled`)
      }
      return {
        ...synced,
        refpay: { ...reference, status, refunded_cents: refunded, checked_at: new Date().toISOString() },
      }
    } catch (error) {
      if (error instanceof RefpayConflictError && error.code === "PAYMENT_ALREADY_CANCELLED") {
        return { ...synced, refpay: { ...reference, status: "CANCELLED" } }
      }
      throw this.fail(error, "cancel the payment reference")
    }
  }

  private warnIfUnknown(known: boolean, reference: RefpayReference): void {
    if (!known) {
      this.logger_.warn(
        `REFPAY: unknown status "${reference.status}" for payment ${reference.payment_id}; treated as awaiting payment`
      )
    }
  }

  /**
   * The error Medusa is handed. These methods run for anonymous shoppers (cart completion, payment sessions), so the
   * caller gets a shopper's message; whatever it replaces (the platform's detail, redacted by the client) is logged.
   */
  private fail(error: unknown, action: string): Error {
    const shown = toMedusaError(error, action, "shopper")
    if (shown !== error)
      this.logger_.error(`REFPAY: could not ${action}: ${error instanceof Error ? error.message : String(error)}`)
    return shown
  }
}

/** The platform's paid amount is exactly the session's (a status read without an amount does not count). */
function paidAmountMatches(data: RefpaySessionData): boolean {
  return data.refpay?.platform_amount_cents === data.amount_cents
}

function assertEuro(currencyCode: string): void {
  if (currencyCode?.toLowerCase() !== "eur") {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `REFPAY accepts payments in euros only; this cart is in ${String(currencyCode).toUpperCase()}. ` +
        "Offer REFPAY only in regions whose currency is EUR."
    )
  }
}
