import type { EntityManager } from "@medusajs/framework/mikro-orm/knex"
import type { Context } from "@medusajs/framework/types"
import { InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import type { MalformedWebhookReason, WebhookRefusalReason, WebhookRoute } from "../../rules/webhook"
import { recordUnchangedChecks, takeDueChecks, type TakenCheck, type UnchangedCheck } from "./due-checks"
import { RefpayPaymentCheck } from "./models/payment-check"
import { RefpayWebhookEvent } from "./models/webhook-event"
import { RefpayWebhookRejection } from "./models/webhook-rejection"
import * as checks from "./payment-checks"
import { deliveryTotals, listDeliveries, type DeliveryFilter, type DeliveryRow } from "./webhook-deliveries"
import { markWebhookEvent, recordWebhookEvent, type RecordedEvent, type RecordEventInput } from "./webhook-ledger"
import {
  countRejection,
  listMalformed,
  listRefusals,
  type WebhookMalformed,
  type WebhookRefusal,
} from "./webhook-rejections"

/**
 * The REFPAY module's one service, as Medusa loads a module: the generated CRUD of its three tables, and a method
 * per operation the plugin needs beyond them. Each method only opens the shared context (a transaction when the
 * caller has one) and hands it to the file of its concern: the webhook ledger, the delivery list, the rejection
 * counters, the payment checks and the poll run's batch statements. The module touches only its own tables.
 */
class RefpayModuleService extends MedusaService({
  RefpayWebhookEvent,
  RefpayPaymentCheck,
  RefpayWebhookRejection,
}) {
  // The webhook ledger (webhook-ledger.ts).

  @InjectManager()
  async recordWebhookEvent(
    input: RecordEventInput,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<RecordedEvent> {
    return await recordWebhookEvent(sharedContext.manager!, input)
  }

  @InjectManager()
  async markWebhookEventProcessed(
    id: string,
    outcome: string,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<void> {
    await markWebhookEvent(sharedContext.manager!, id, { processed: true, outcome })
  }

  /** Notes why an event was not processed; it stays unprocessed, so a redelivery processes it. */
  @InjectManager()
  async markWebhookEventFailed(
    id: string,
    outcome: string,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<void> {
    await markWebhookEvent(sharedContext.manager!, id, { processed: false, outcome })
  }

  // Recorded deliveries for the admin page (webhook-deliveries.ts).

  @InjectManager()
  async listDeliveries(
    filter: DeliveryFilter,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<{ rows: DeliveryRow[]; count: number }> {
    return await listDeliveries(sharedContext.manager!, filter)
  }

  @InjectManager()
  async deliveryTotals(
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<{ last_received_at: Date | null; count: number }> {
    return await deliveryTotals(sharedContext.manager!)
  }

  // Deliveries not taken in: refused or malformed (webhook-rejections.ts).

  @InjectManager()
  async recordWebhookRefusal(
    refusal: { route: WebhookRoute; reason: WebhookRefusalReason; provider_id?: string | null },
    at: Date = new Date(),
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<void> {
    const { route, reason } = refusal
    await countRejection(
      sharedContext.manager!,
      { route, reason, kind: "refused", provider_id: refusal.provider_id ?? "" },
      at
    )
  }

  @InjectManager()
  async recordMalformedWebhook(
    delivery: { route: WebhookRoute; reason: MalformedWebhookReason; provider_id: string },
    at: Date = new Date(),
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<void> {
    await countRejection(sharedContext.manager!, { ...delivery, kind: "malformed" }, at)
  }

  async listWebhookRefusals(providerId?: string): Promise<WebhookRefusal[]> {
    return await listRefusals(this, providerId)
  }

  async listMalformedWebhooks(providerId: string): Promise<WebhookMalformed[]> {
    return await listMalformed(this, providerId)
  }

  // Payment checks (payment-checks.ts).

  async getPaymentCheck(sessionId: string): Promise<checks.PaymentCheck | undefined> {
    return await checks.getPaymentCheck(this, sessionId)
  }

  /** `previous`: the session's check as the caller has just read it (null: none), so it is not read again. */
  @InjectManager()
  async recordPaymentCheck(
    record: checks.CheckRecord,
    previous?: checks.PaymentCheck | null,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<void> {
    await checks.recordPaymentCheck(this, sharedContext.manager!, record, previous)
  }

  async keptReference(sessionId: string): Promise<checks.PaymentCheck | undefined> {
    return await checks.keptReference(this, sessionId)
  }

  async claimAlert(sessionId: string, alert: string): Promise<boolean> {
    return await checks.claimAlert(this, sessionId, alert)
  }

  async stopWatching(sessionId: string): Promise<void> {
    await checks.stopWatching(this, sessionId)
  }

  async addPaymentChecks(rows: checks.NewPaymentCheck[]): Promise<string[]> {
    return await checks.addPaymentChecks(this, rows)
  }

  // The poll run's statements over a page of checks (due-checks.ts).

  @InjectManager()
  async recordUnchangedChecks(
    rows: UnchangedCheck[],
    checkedAt: Date,
    nextCheckAt: Date,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<string[]> {
    return await recordUnchangedChecks(sharedContext.manager!, rows, checkedAt, nextCheckAt)
  }

  @InjectManager()
  async takeDueChecks(
    providerId: string,
    now: Date,
    until: Date,
    take: number,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<TakenCheck[]> {
    return await takeDueChecks(sharedContext.manager!, { providerId, now, until, take })
  }
}

export default RefpayModuleService
