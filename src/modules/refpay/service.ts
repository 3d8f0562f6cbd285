import { MedusaService } from "@medusajs/framework/utils"
import { RefpayPaymentCheck } from "./models/payment-check"
import { RefpayWebhookEvent } from "./models/webhook-event"

export interface RecordEventInput {
  event_key: string
  event_type: string
  payment_id: string
  order_id?: string | null
  door: "medusa" | "refpay"
}

export interface RecordedEvent {
  id: string
  /** True when this event was already processed: the delivery must do nothing. */
  duplicate: boolean
}

/** One check of a session, as the sync records it (see RefpayPaymentCheck). */
export interface CheckRecord {
  session_id: string
  provider_id: string
  checked_at: Date
  outcome: string
  error?: string | null
  /** Whether the check itself failed (platform unreachable, payment unknown): the backoff grows. */
  failed: boolean
  next_check_at: Date
  watch_until: Date | null
}

export interface PaymentCheck {
  id: string
  session_id: string
  provider_id: string
  watch_until: Date | null
  next_check_at: Date
  last_checked_at: Date | null
  last_outcome: string | null
  last_error: string | null
  failures: number
  alerted_fact: string | null
}

class RefpayModuleService extends MedusaService({ RefpayWebhookEvent, RefpayPaymentCheck }) {
  /**
   * Records a delivery. The unique event_key makes this safe across processes: of two concurrent deliveries one
   * inserts, the other finds the row (and both go on to a sync that is itself locked and idempotent).
   */
  async recordWebhookEvent(input: RecordEventInput): Promise<RecordedEvent> {
    const existing = await this.findEvent(input.event_key)
    if (existing) return this.countDelivery(existing)
    try {
      const created = await this.createRefpayWebhookEvents({ ...input, order_id: input.order_id ?? null })
      return { id: created.id, duplicate: false }
    } catch (error) {
      const raced = await this.findEvent(input.event_key)
      if (!raced) throw error
      return this.countDelivery(raced)
    }
  }

  async markWebhookEventProcessed(id: string, outcome: string): Promise<void> {
    await this.updateRefpayWebhookEvents({ id, processed_at: new Date(), outcome })
  }

  /** Notes why an event was not processed; it stays unprocessed, so a redelivery processes it. */
  async markWebhookEventFailed(id: string, outcome: string): Promise<void> {
    await this.updateRefpayWebhookEvents({ id, outcome })
  }

  async getPaymentCheck(sessionId: string): Promise<PaymentCheck | undefined> {
    const [check] = await this.listRefpayPaymentChecks({ session_id: sessionId }, { take: 1 })
    return check as PaymentCheck | undefined
  }

  /** Records a check: outcome, backoff counter, when it is next due and until when it is watched. */
  async recordPaymentCheck(record: CheckRecord): Promise<PaymentCheck> {
    const existing = await this.getPaymentCheck(record.session_id)
    const fields = {
      provider_id: record.provider_id,
      last_checked_at: record.checked_at,
      last_outcome: record.outcome,
      last_error: record.error ?? null,
      failures: record.failed ? (existing?.failures ?? 0) + 1 : 0,
      next_check_at: record.next_check_at,
      watch_until: record.watch_until,
    }
    if (existing) return (await this.updateRefpayPaymentChecks({ id: existing.id, ...fields })) as PaymentCheck
    try {
      return (await this.createRefpayPaymentChecks({ session_id: record.session_id, ...fields })) as PaymentCheck
    } catch (error) {
      const raced = await this.getPaymentCheck(record.session_id)
      if (!raced) throw error
      return (await this.updateRefpayPaymentChecks({ id: raced.id, ...fields })) as PaymentCheck
    }
  }

  /** Remembers an announced fact; true when it is new (announce it), false when it was already announced. */
  async claimAlert(sessionId: string, fact: string): Promise<boolean> {
    const check = await this.getPaymentCheck(sessionId)
    if (!check || check.alerted_fact === fact) return check ? false : true
    await this.updateRefpayPaymentChecks({ id: check.id, alerted_fact: fact })
    return true
  }

  /** The session is gone or not REFPAY's: the poll job stops looking at it. */
  async stopWatching(sessionId: string): Promise<void> {
    const check = await this.getPaymentCheck(sessionId)
    if (check?.watch_until) await this.updateRefpayPaymentChecks({ id: check.id, watch_until: null })
  }

  /** Starts watching sessions the poll job has not seen yet (created by checkout, before any check). */
  async watchSessions(rows: { session_id: string; provider_id: string; next_check_at: Date; watch_until: Date }[]): Promise<void> {
    if (rows.length === 0) return
    const known = new Set(
      (await this.listRefpayPaymentChecks({ session_id: rows.map((r) => r.session_id) }, { select: ["session_id"] })).map(
        (c) => c.session_id
      )
    )
    const fresh = rows.filter((r) => !known.has(r.session_id))
    if (fresh.length > 0) await this.createRefpayPaymentChecks(fresh).catch(() => undefined) // a concurrent tick won
  }

  private async findEvent(eventKey: string) {
    const [event] = await this.listRefpayWebhookEvents({ event_key: eventKey }, { take: 1 })
    return event
  }

  private async countDelivery(event: { id: string; deliveries: number; processed_at: Date | null }): Promise<RecordedEvent> {
    await this.updateRefpayWebhookEvents({ id: event.id, deliveries: event.deliveries + 1 })
    return { id: event.id, duplicate: event.processed_at !== null }
  }
}

export default RefpayModuleService
