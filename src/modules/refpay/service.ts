import type { EntityManager } from "@medusajs/framework/mikro-orm/knex"
import type { Context } from "@medusajs/framework/types"
import { generateEntityId, InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import { RefpayPaymentCheck } from "./models/payment-check"
import { RefpayWebhookEvent } from "./models/webhook-event"
import { RefpayWebhookMalformed } from "./models/webhook-malformed"
import { RefpayWebhookRefusal } from "./models/webhook-refusal"
import { isUniqueViolation } from "../../medusa-compat/database-errors"
import type { MalformedWebhookReason } from "../../rules/webhook"

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
  /** The reference's validity as this check knows it. */
  expires_at: Date | null
  /** The reminder e-mail of the reference was sent by this check. */
  reminded?: boolean
}

/** An unchanged check of a poll tick, recorded with the others of its page in one statement. */
export interface UnchangedCheck {
  session_id: string
  /** What the sync would have recorded: `record_check` (still waiting) or `none` (cancelled on both sides). */
  outcome: string
  watch_until: Date | null
  expires_at: Date | null
  /** The row's last_checked_at when the tick read it: a row another check has recorded since is left alone. */
  last_checked_at: Date | null
}

/** A due check taken by a poll tick for a page it hands to the event bus. */
export interface TakenCheck {
  session_id: string
  last_checked_at: Date | null
  reminded_at: Date | null
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
  reminded_at: Date | null
  expires_at: Date | null
  /** Copies for the owner's numbers: see medusa-compat/medusa-tables/reference-copies.ts. */
  issued_at: Date | null
  amount_cents: number | null
  session_status: string | null
  expired_at: Date | null
  paid_at: Date | null
  late_at: Date | null
  renewed: boolean
  on_renewed_reference: boolean
  captured_cents: number
  refunded_cents: number
  platform_amount_cents: number | null
  platform_refunded_cents: number
  differs: boolean
  payment_collection_id: string | null
  /** The plugin's copy of the reference (the session's `data.refpay`) and its order: see the model. */
  reference: Record<string, unknown> | null
  order_id: string | null
}

/**
 * The `order_id` of the throwaway payments the admin page's "Send a test event" creates in the sandbox: their
 * deliveries are shown as test events, not as unknown payments.
 */
export const TEST_EVENT_ORDER_PREFIX = "refpay-test-"

/** What became of a recorded delivery, derived from processed_at, outcome, deliveries and order_id. */
export type DeliveryStatus = "processed" | "duplicate" | "unknown_payment" | "not_processed" | "test"

export interface DeliveryFilter {
  status?: DeliveryStatus
  event_type?: string
  payment_id?: string
  limit: number
  offset: number
}

export interface DeliveryRow {
  id: string
  event_type: string
  payment_id: string
  order_id: string | null
  door: "medusa" | "refpay"
  deliveries: number
  processed_at: Date | null
  outcome: string | null
  /** When the first delivery arrived. */
  received_at: Date
  /** When the record last changed (a further delivery, processing). */
  updated_at: Date
  status: DeliveryStatus
}

/** A row of the deliveries query as PostgreSQL returns it (counts as strings or numbers, times as dates or text). */
type DeliveryTableRow = Omit<DeliveryRow, "deliveries" | "processed_at" | "received_at" | "updated_at"> & {
  deliveries: string | number
  processed_at: string | Date | null
  created_at: string | Date
  updated_at: string | Date
}

/** Why a webhook delivery was refused before anything about it was recorded. */
export type WebhookRefusalReason = "missing_secret" | "wrong_secret" | "no_secret_configured"

export interface WebhookRefusal {
  door: "medusa" | "refpay"
  /** The REFPAY registration the delivery was for; "" when it could not be told. */
  provider_id: string
  reason: WebhookRefusalReason
  refused_count: number
  first_refused_at: Date
  last_refused_at: Date
}

/** Authentic deliveries that were not usable REFPAY events, counted per webhook route, registration and reason. */
export interface WebhookMalformed {
  door: "medusa" | "refpay"
  provider_id: string
  reason: MalformedWebhookReason
  received_count: number
  first_received_at: Date
  last_received_at: Date
}

class RefpayModuleService extends MedusaService({
  RefpayWebhookEvent,
  RefpayPaymentCheck,
  RefpayWebhookRefusal,
  RefpayWebhookMalformed,
}) {
  /**
   * Records a delivery in one statement (a burst's deliveries each wait for it before their answer): a new event is
   * inserted; a repeated one counts one more delivery and is a duplicate once processed. The unique event_key makes
   * this safe across processes: of two concurrent deliveries one inserts, the other counts (and both go on to a sync
   * that is itself locked and idempotent).
   */
  @InjectManager()
  async recordWebhookEvent(
    input: RecordEventInput,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<RecordedEvent> {
    const [row]: { id: string; processed_at: Date | null }[] = await sharedContext.manager!.getConnection().execute(
      `insert into "refpay_webhook_event" ("id", "event_key", "event_type", "payment_id", "order_id", "door")
       values (?, ?, ?, ?, ?, ?)
       on conflict ("event_key") where "deleted_at" is null
       do update set "deliveries" = "refpay_webhook_event"."deliveries" + 1, "updated_at" = now()
       returning "id", "processed_at"`,
      [
        generateEntityId(undefined, "rpwh"),
        input.event_key,
        input.event_type,
        input.payment_id,
        input.order_id ?? null,
        input.door,
      ]
    )
    return { id: row!.id, duplicate: row!.processed_at !== null }
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
      expires_at: record.expires_at,
      ...(record.reminded ? { reminded_at: record.checked_at } : {}),
    }
    return await this.writePaymentCheck(existing, record.session_id, fields)
  }

  private async writePaymentCheck(
    existing: PaymentCheck | undefined,
    sessionId: string,
    fields: Partial<PaymentCheck>
  ): Promise<PaymentCheck> {
    if (existing) return (await this.updateRefpayPaymentChecks({ id: existing.id, ...fields })) as PaymentCheck
    try {
      return (await this.createRefpayPaymentChecks({ session_id: sessionId, ...fields })) as PaymentCheck
    } catch (error) {
      const raced = await this.getPaymentCheck(sessionId)
      if (!raced) throw error
      return (await this.updateRefpayPaymentChecks({ id: raced.id, ...fields })) as PaymentCheck
    }
  }

  /** The plugin's own record of a reference (its check with `reference`), for when Medusa deleted its session. */
  async keptReference(sessionId: string): Promise<PaymentCheck | undefined> {
    const check = await this.getPaymentCheck(sessionId)
    return check?.reference ? check : undefined
  }

  /**
   * Records the unchanged checks of a poll tick's page in one statement: each row's outcome, no failure, next
   * due at `nextCheckAt`. A row whose last_checked_at moved since the tick read it (a webhook's or the admin's sync
   * recorded a newer check meanwhile) is left as that check wrote it. Returns the session ids recorded.
   */
  @InjectManager()
  async recordUnchangedChecks(
    rows: UnchangedCheck[],
    checkedAt: Date,
    nextCheckAt: Date,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<string[]> {
    if (rows.length === 0) return []
    const recorded: { session_id: string }[] = await sharedContext.manager!.getConnection().execute(
      `update "refpay_payment_check" c
          set "last_checked_at" = ?, "last_outcome" = u."outcome", "last_error" = null, "failures" = 0,
              "next_check_at" = ?, "watch_until" = u."watch_until", "expires_at" = u."expires_at", "updated_at" = now()
         from jsonb_to_recordset(?::jsonb) as u("session_id" text, "outcome" text, "watch_until" timestamptz, "expires_at" timestamptz, "seen" timestamptz)
        where c."session_id" = u."session_id" and c."deleted_at" is null
          and c."last_checked_at" is not distinct from u."seen"
        returning c."session_id"`,
      [
        checkedAt,
        nextCheckAt,
        JSON.stringify(
          rows.map((r) => ({
            session_id: r.session_id,
            outcome: r.outcome,
            watch_until: r.watch_until,
            expires_at: r.expires_at,
            seen: r.last_checked_at,
          }))
        ),
      ]
    )
    return recorded.map((row) => row.session_id)
  }

  /**
   * Takes up to `take` due checks of a registration, oldest due first, for a page a tick hands to another process:
   * their next check moves to `until`, so no tick reads them again meanwhile, and a page whose process dies is due
   * again then. One statement; rows another tick is taking are skipped rather than waited for.
   */
  @InjectManager()
  async takeDueChecks(
    providerId: string,
    now: Date,
    until: Date,
    take: number,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<TakenCheck[]> {
    return await sharedContext.manager!.getConnection().execute(
      `update "refpay_payment_check" c set "next_check_at" = ?, "updated_at" = now()
        where c."id" in (
          select "id" from "refpay_payment_check"
           where "provider_id" = ? and "deleted_at" is null and "watch_until" > ? and "next_check_at" <= ?
           order by "next_check_at" asc, "session_id" asc
           limit ? for update skip locked)
        returning c."session_id", c."last_checked_at", c."reminded_at"`,
      [until, providerId, now, now, take]
    )
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

  /**
   * Starts watching sessions the poll job has not seen yet (created by checkout, before any check); returns the ids
   * of the checks it created, whose copies of the reference the caller then fills (refreshReferenceCopies).
   */
  async watchSessions(
    rows: {
      session_id: string
      provider_id: string
      next_check_at: Date
      watch_until: Date
      expires_at?: Date | null
    }[]
  ): Promise<string[]> {
    if (rows.length === 0) return []
    const known = new Set(
      (
        await this.listRefpayPaymentChecks({ session_id: rows.map((r) => r.session_id) }, { select: ["session_id"] })
      ).map((c) => c.session_id)
    )
    const fresh = rows.filter((r) => !known.has(r.session_id))
    if (fresh.length === 0) return []
    const created = await this.createRefpayPaymentChecks(fresh).catch((error: unknown) => {
      // A concurrent tick inserted some of these first; the rest are picked up by the next tick. Anything else is a
      // real failure and must surface.
      if (!isUniqueViolation(error)) throw error
      return []
    })
    return created.map((check) => check.session_id)
  }

  /**
   * Counts a delivery refused for its secret. One atomic upsert per refusal, so concurrent refusals all count and a
   * flood of them adds no rows. Nothing the caller sent is stored.
   */
  @InjectManager()
  async recordWebhookRefusal(
    refusal: { door: WebhookRefusal["door"]; reason: WebhookRefusalReason; provider_id?: string | null },
    at: Date = new Date(),
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<void> {
    await sharedContext.manager!.getConnection().execute(
      `insert into "refpay_webhook_refusal" ("id", "door", "reason", "provider_id", "refused_count", "first_refused_at", "last_refused_at")
       values (?, ?, ?, ?, 1, ?, ?)
       on conflict ("door", "reason", "provider_id") where "deleted_at" is null
       do update set "refused_count" = "refpay_webhook_refusal"."refused_count" + 1,
                     "last_refused_at" = greatest("refpay_webhook_refusal"."last_refused_at", excluded."last_refused_at"),
                     "updated_at" = now()`,
      [generateEntityId(undefined, "rpwr"), refusal.door, refusal.reason, refusal.provider_id ?? "", at, at]
    )
  }

  /**
   * Counts an authentic delivery that was not a usable REFPAY event, like a refusal: one atomic upsert, nothing the
   * platform sent stored.
   */
  @InjectManager()
  async recordMalformedWebhook(
    delivery: { door: WebhookMalformed["door"]; reason: MalformedWebhookReason; provider_id: string },
    at: Date = new Date(),
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<void> {
    await sharedContext.manager!.getConnection().execute(
      `insert into "refpay_webhook_malformed" ("id", "door", "reason", "provider_id", "received_count", "first_received_at", "last_received_at")
       values (?, ?, ?, ?, 1, ?, ?)
       on conflict ("door", "reason", "provider_id") where "deleted_at" is null
       do update set "received_count" = "refpay_webhook_malformed"."received_count" + 1,
                     "last_received_at" = greatest("refpay_webhook_malformed"."last_received_at", excluded."last_received_at"),
                     "updated_at" = now()`,
      [generateEntityId(undefined, "rpwm"), delivery.door, delivery.reason, delivery.provider_id, at, at]
    )
  }

  /** Malformed deliveries of one registration, latest first. */
  async listMalformedWebhooks(providerId: string): Promise<WebhookMalformed[]> {
    const rows = await this.listRefpayWebhookMalformeds(
      { provider_id: providerId },
      { order: { last_received_at: "DESC" } }
    )
    return rows.map((row) => ({
      door: row.door,
      provider_id: row.provider_id,
      reason: row.reason as MalformedWebhookReason,
      received_count: row.received_count,
      first_received_at: new Date(row.first_received_at),
      last_received_at: new Date(row.last_received_at),
    }))
  }

  /**
   * Recorded deliveries, newest first, with what became of each. The status is derived in SQL so it can be
   * filtered and paginated there: test (an admin test event), not_processed (recorded, not processed: the
   * platform delivers it again), unknown_payment, duplicate (processed, delivered more than once), processed.
   */
  @InjectManager()
  async listDeliveries(
    filter: DeliveryFilter,
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<{ rows: DeliveryRow[]; count: number }> {
    const knex = sharedContext.manager!.getKnex()
    const status = knex.raw(
      `case when "order_id" like ? then 'test'
            when "processed_at" is null then 'not_processed'
            when "outcome" = 'unknown_payment' then 'unknown_payment'
            when "deliveries" > 1 then 'duplicate'
            else 'processed' end`,
      [`${TEST_EVENT_ORDER_PREFIX}%`]
    )
    const base = knex
      .from(
        knex("refpay_webhook_event")
          .select(
            "id",
            "event_type",
            "payment_id",
            "order_id",
            "door",
            "deliveries",
            "processed_at",
            "outcome",
            "created_at",
            "updated_at"
          )
          .select({ status })
          .whereNull("deleted_at")
          .as("e")
      )
      .modify((query) => {
        if (filter.status) query.where("status", filter.status)
        if (filter.event_type) query.where("event_type", filter.event_type)
        if (filter.payment_id) query.where("payment_id", filter.payment_id)
      })
    const [rows, [{ count }]] = await Promise.all([
      base
        .clone()
        .select("*")
        .orderBy([
          { column: "created_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(filter.limit)
        .offset(filter.offset),
      base.clone().count({ count: "*" }),
    ])
    return {
      count: Number(count),
      rows: (rows as DeliveryTableRow[]).map((row) => ({
        id: row.id,
        event_type: row.event_type,
        payment_id: row.payment_id,
        order_id: row.order_id,
        door: row.door,
        deliveries: Number(row.deliveries),
        processed_at: row.processed_at ? new Date(row.processed_at) : null,
        outcome: row.outcome,
        received_at: new Date(row.created_at),
        updated_at: new Date(row.updated_at),
        status: row.status,
      })),
    }
  }

  /** When the latest delivery (accepted, any outcome) arrived, and how many were ever recorded. */
  @InjectManager()
  async deliveryTotals(
    @MedusaContext() sharedContext: Context<EntityManager> = {}
  ): Promise<{ last_received_at: Date | null; count: number }> {
    const knex = sharedContext.manager!.getKnex()
    const [row] = await knex("refpay_webhook_event")
      .whereNull("deleted_at")
      .max({ last: "updated_at" })
      .count({ count: "*" })
    return { last_received_at: row?.last ? new Date(row.last as string) : null, count: Number(row?.count ?? 0) }
  }

  /** Refusals, latest first; of one registration (and those that could not be told apart) when given. */
  async listWebhookRefusals(providerId?: string): Promise<WebhookRefusal[]> {
    const filter = providerId ? { provider_id: [providerId, ""] } : {}
    const rows = await this.listRefpayWebhookRefusals(filter, { order: { last_refused_at: "DESC" } })
    return rows.map((row) => ({
      door: row.door,
      provider_id: row.provider_id,
      reason: row.reason,
      refused_count: row.refused_count,
      first_refused_at: new Date(row.first_refused_at),
      last_refused_at: new Date(row.last_refused_at),
    }))
  }
}

export default RefpayModuleService
