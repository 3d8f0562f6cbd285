import type { EntityManager } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import type { MalformedWebhookReason, WebhookRefusalReason, WebhookRoute } from "../../rules/webhook"
import type RefpayModuleService from "./service"

/**
 * Counters of the webhook deliveries the plugin did not take in (`refpay_webhook_rejection`): refused for their
 * secret, or authentic but not a usable event. Both are counted the same way, per route, account and reason.
 */

export type RejectionKind = "refused" | "malformed"

export interface WebhookRefusal {
  route: WebhookRoute
  /** The REFPAY account the delivery was for; "" when it could not be told. */
  provider_id: string
  reason: WebhookRefusalReason
  refused_count: number
  first_refused_at: Date
  last_refused_at: Date
}

/** Authentic deliveries that were not usable REFPAY events, counted per webhook route, account and reason. */
export interface WebhookMalformed {
  route: WebhookRoute
  provider_id: string
  reason: MalformedWebhookReason
  received_count: number
  first_received_at: Date
  last_received_at: Date
}

export interface Rejection {
  route: WebhookRoute
  kind: RejectionKind
  reason: string
  provider_id: string
}

/**
 * Counts one rejected delivery. One atomic upsert per delivery, so concurrent ones all count and a flood of them adds
 * no rows. Nothing the caller sent is stored.
 */
export async function countRejection(manager: EntityManager, rejection: Rejection, at: Date): Promise<void> {
  await manager.getConnection().execute(
    `insert into "refpay_webhook_rejection" ("id", "route", "kind", "reason", "provider_id", "delivery_count", "first_received_at", "last_received_at")
     values (?, ?, ?, ?, ?, 1, ?, ?)
     on conflict ("route", "kind", "reason", "provider_id") where "deleted_at" is null
     do update set "delivery_count" = "refpay_webhook_rejection"."delivery_count" + 1,
                   "last_received_at" = greatest("refpay_webhook_rejection"."last_received_at", excluded."last_received_at"),
                   "updated_at" = now()`,
    [
      generateEntityId(undefined, "rpwj"),
      rejection.route,
      rejection.kind,
      rejection.reason,
      rejection.provider_id,
      at,
      at,
    ]
  )
}

type RejectionStore = Pick<RefpayModuleService, "listRefpayWebhookRejections">

/** Refusals, latest first; of one account (and those that could not be told apart) when given. */
export async function listRefusals(store: RejectionStore, providerId?: string): Promise<WebhookRefusal[]> {
  const rows = await listRejections(store, "refused", providerId ? [providerId, ""] : undefined)
  return rows.map(({ count, first, last, ...row }) => ({
    ...row,
    reason: row.reason as WebhookRefusalReason,
    refused_count: count,
    first_refused_at: first,
    last_refused_at: last,
  }))
}

/** Malformed deliveries of one account, latest first. */
export async function listMalformed(store: RejectionStore, providerId: string): Promise<WebhookMalformed[]> {
  const rows = await listRejections(store, "malformed", [providerId])
  return rows.map(({ count, first, last, ...row }) => ({
    ...row,
    reason: row.reason as MalformedWebhookReason,
    received_count: count,
    first_received_at: first,
    last_received_at: last,
  }))
}

/** The counters of one kind, latest first, of the given accounts (all when none are given). */
async function listRejections(store: RejectionStore, kind: RejectionKind, providerIds?: string[]) {
  const rows = await store.listRefpayWebhookRejections(
    { kind, ...(providerIds ? { provider_id: providerIds } : {}) },
    { order: { last_received_at: "DESC" } }
  )
  return rows.map((row) => ({
    route: row.route,
    provider_id: row.provider_id,
    reason: row.reason,
    count: row.delivery_count,
    first: new Date(row.first_received_at),
    last: new Date(row.last_received_at),
  }))
}
