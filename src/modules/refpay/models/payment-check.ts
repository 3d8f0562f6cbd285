import { model } from "@medusajs/framework/utils"

/**
 * The poll job's record of one REFPAY payment session: when it was last checked, with what outcome, and when it is
 * next due. Every check is recorded here (a failure too), so failing sessions back off and cannot starve the
 * others; it is also where an alert remembers what it announced, so it fires once per new alert. Kept apart from
 * Medusa's payment session: bookkeeping never goes through the payment provider.
 */
export const RefpayPaymentCheck = model
  .define("refpay_payment_check", {
    id: model.id({ prefix: "rpchk" }).primaryKey(),
    session_id: model.text().unique(),
    provider_id: model.text(),
    /** Checked until then: validity, grace and the late-settlement window. Null once nothing can change any more. */
    check_until: model.dateTime().nullable(),
    next_check_at: model.dateTime(),
    last_checked_at: model.dateTime().nullable(),
    /** What the last check did (a sync action) or why it failed (unknown_payment, platform_error, ...). */
    last_outcome: model.text().nullable(),
    last_error: model.text().nullable(),
    /** Consecutive failed checks; the backoff grows with it. */
    failures: model.number().default(0),
    /** The last alert announced, e.g. "amount_mismatch:2499", so each new alert is announced once. */
    last_alert: model.text().nullable(),
    /**
     * When the customer was sent the reminder for this reference: a run's unchanged check may be recorded in a batch
     * only when no reminder is owed (src/sync-triggers/poll/unchanged-checks.ts).
     */
    reminded_at: model.dateTime().nullable(),
    /**
     * The reference's validity as last known (the platform's, or the one issued): the REFPAY page's "expiring" list
     * reads it here, indexed, instead of out of every waiting session's data.
     */
    expires_at: model.dateTime().nullable(),
    /*
     * What the owner's numbers count the reference by, copied from its session and payment after each check and
     * each capture or refund (medusa-compat/medusa-tables/reference-copies.ts says what each one is): a period's numbers read this table alone.
     * Two more, issued_day and paid_day (the Lisbon days of issued_at and paid_at, indexed per account by the
     * migration), are PostgreSQL `date` columns written and read by SQL only: Medusa's data model language has no
     * date type.
     */
    issued_at: model.dateTime().nullable(),
    amount_cents: model.number().nullable(),
    session_status: model.text().nullable(),
    expired_at: model.dateTime().nullable(),
    paid_at: model.dateTime().nullable(),
    late_at: model.dateTime().nullable(),
    renewed: model.boolean().default(false),
    on_renewed_reference: model.boolean().default(false),
    captured_cents: model.number().default(0),
    refunded_cents: model.number().default(0),
    platform_amount_cents: model.number().nullable(),
    platform_refunded_cents: model.number().default(0),
    differs: model.boolean().default(false),
    payment_collection_id: model.text().nullable(),
    /*
     * The reference as its session last held it (`data.refpay`: payment id, entity, reference, amount, validity) and
     * its order: kept here because Medusa may delete a session (its store route, a "pay again" step) while the
     * reference can still be settled late, and the plugin must then still find, flag and refund that payment.
     */
    reference: model.json().nullable(),
    order_id: model.text().nullable(),
  })
  .indexes([
    { on: ["next_check_at"], where: "check_until IS NOT NULL AND deleted_at IS NULL" },
    // The admin page lists payments by their last outcome (amount_mismatch, unknown_payment, platform_error).
    { on: ["last_outcome"] },
    { on: ["expires_at"], where: "check_until IS NOT NULL AND deleted_at IS NULL" },
    { on: ["provider_id", "late_at"], where: "late_at IS NOT NULL AND deleted_at IS NULL" },
  ])
