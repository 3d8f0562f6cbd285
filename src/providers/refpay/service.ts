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
import { createRefpayClient, type RefpayClient } from "../../lib/refpay"
import type { AmountLimits } from "../../rules/amount-limits"
import { assertWithinAmountLimits } from "../../rules/checkout-rules"
import { snapshotCustomer } from "../../rules/customer"
import { toCents } from "../../rules/money"
import { answerProviderLookup } from "../../medusa-compat/provider-registry"
import {
  RefpayOptionsError,
  resolveOptions,
  type RefpayProviderOptions,
  type ResolvedRefpayOptions,
} from "../../config"
import { NO_BOOKKEEPING, readSessionData, type RefpaySessionData } from "../../rules/session-data"
import { interpretStatus } from "../../rules/status"
import { cancelReference } from "./cancel-reference"
import { clientConfigOf } from "./client-config"
import { createReference } from "./create-reference"
import type { ProviderContext } from "./provider-context"
import { authorizationFromPlatform, paidAmountMatches, syncReference, warnIfUnknown } from "./read-reference"
import { refundPayment } from "./refund-payment"

type Cradle = { logger: Logger }

/**
 * REFPAY reference payments as a Medusa payment provider (`pp_refpay_refpay` when registered with id "refpay").
 *
 * The flow is asynchronous: the reference is created when the cart completes and reported as
 * `pending_authorization`, so Medusa creates the order while the customer has not paid yet. Every later call
 * (Medusa re-authorising on a webhook, a capture, a status check) asks the platform for the truth rather than
 * trusting stored state or an incoming event. Each method maps one Medusa hook to the platform client; the calls
 * themselves live beside it (create-, read-, cancel-reference.ts, refund-payment.ts), the decisions in src/rules.
 */
export class RefpayProviderService extends AbstractPaymentProvider<RefpayProviderOptions> {
  static identifier = "refpay"

  protected readonly options_: ResolvedRefpayOptions
  protected readonly logger_: Logger
  protected readonly client_: RefpayClient
  private readonly context_: ProviderContext

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
    this.context_ = { client: this.client_, logger: this.logger_, settings: this.options_ }
  }

  /** The platform client, for the plugin's routes, jobs and workflows that sync payments. */
  get client(): RefpayClient {
    return this.client_
  }

  get settings(): Readonly<ResolvedRefpayOptions> {
    return this.options_
  }

  /** The amounts this account issues references for, read from its settings on every call. */
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
    if (data.refpay) return authorizationFromPlatform(this.context_, data)
    assertWithinAmountLimits(data.amount_cents, this.amountLimits)
    const reference = await createReference(this.context_, data)
    const status = interpretStatus(reference.status)
    warnIfUnknown(this.context_, status.known, reference)
    return { status: status.session, data: { ...data, refpay: reference } }
  }

  /** Succeeds only once the platform says the customer paid; a capture never moves money by itself here. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const data = readSessionData(input.data)
    const synced = await syncReference(this.context_, data)
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
    return { data: await cancelReference(this.context_, readSessionData(input.data)) }
  }

  /** A replaced session: its reference, if any, must not stay payable. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const data = readSessionData(input.data)
    if (!data.refpay) return { data }
    return { data: await cancelReference(this.context_, data) }
  }

  /** A refund under a key derived from Medusa's refund id, decided from the platform's own records (refund-payment.ts). */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    return refundPayment(this.context_, input)
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = readSessionData(input.data)
    if (!data.refpay) return { status: "pending", data }
    return authorizationFromPlatform(this.context_, data)
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const data = readSessionData(input.data)
    return { data: data.refpay ? await syncReference(this.context_, data) : data }
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
    const cancelled = await cancelReference(this.context_, data)
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
   * plugin's own lookup of its providers (medusa-compat/provider-registry.ts) arrives here too: the provider hands itself over.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    answerProviderLookup(payload, this)
    return { action: "not_supported" }
  }
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
