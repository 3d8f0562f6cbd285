import { z } from "@medusajs/framework/zod"
import { ATTENTION_KINDS } from "../../../rules/attention-kinds"

/** Query and body schemas of the admin's REFPAY routes, registered in src/api/middlewares.ts. */

const page = (max: number, fallback: number) => ({
  limit: z.coerce.number().int().min(1).max(max).default(fallback),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
})

/** A REFPAY account of the shop (`pp_refpay_<id>`); the first one when left out. */
const providerId = z
  .string()
  .trim()
  .regex(/^pp_refpay_[A-Za-z0-9_]+$/)
  .max(100)
  .optional()

/**
 * `POST /admin/refpay/orders/:id/payment-requests` and its store twin: which of the order's payment collections to
 * pay; without it, the order's open one (or a new one for what the order still owes).
 */
export const RefpayPaymentRequestBody = z.object({
  payment_collection_id: z.string().trim().min(1).max(100).optional(),
})
export type RefpayPaymentRequestBodyType = z.infer<typeof RefpayPaymentRequestBody>

/** `POST /admin/refpay/late-payments/:session_id/refund` takes no input. */
export const AdminRefpayEmptyBody = z.object({})

/**
 * `GET /admin/refpay/settings`, `GET /admin/refpay/webhooks`, `GET .../webhooks/test-event/:payment_id`: which
 * account (a shop with several REFPAY accounts).
 */
export const AdminRefpayAccountQuery = z.object({ provider_id: providerId })
export type AdminRefpayAccountQueryType = z.infer<typeof AdminRefpayAccountQuery>

/**
 * `POST /admin/refpay/connection-test` and `POST /admin/refpay/webhooks/test-event`: which account, and nothing
 * else (never a credential: the test uses the configured ones).
 */
export const AdminRefpayAccountBody = z.object({ provider_id: providerId })
export type AdminRefpayAccountBodyType = z.infer<typeof AdminRefpayAccountBody>

/** `GET /admin/refpay/webhooks/deliveries`: the latest deliveries first, at most 50 a page. */
export const AdminRefpayDeliveriesQuery = z.object({
  status: z.enum(["processed", "duplicate", "unknown_payment", "not_processed", "test"]).optional(),
  event_type: z.string().trim().min(1).max(100).optional(),
  payment_id: z.string().trim().min(1).max(100).optional(),
  ...page(50, 50),
})
export type AdminRefpayDeliveriesQueryType = z.infer<typeof AdminRefpayDeliveriesQuery>

/** `GET /admin/refpay/attention/:kind`. */
export const AdminRefpayAttentionQuery = z.object({ ...page(100, 20) })
export type AdminRefpayAttentionQueryType = z.infer<typeof AdminRefpayAttentionQuery>

export const AdminRefpayAttentionKind = z.enum(ATTENTION_KINDS)

/**
 * `GET /admin/refpay/search`: the reference a customer quotes (the entity too, when known), matched exactly as
 * text (leading zeros matter); spaces, as in "123 456 789", are also tried without.
 */
export const AdminRefpaySearchQuery = z.object({
  reference: z.string().trim().min(1).max(64),
  entity: z.string().trim().min(1).max(32).optional(),
  ...page(50, 20),
})
export type AdminRefpaySearchQueryType = z.infer<typeof AdminRefpaySearchQuery>

/** A Lisbon calendar day, `YYYY-MM-DD`. */
const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a day as YYYY-MM-DD")
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "a day that exists")
  .optional()

/**
 * `GET /admin/refpay/numbers/{conversion,recovered,reconciliation,export}`: which account, and the period of
 * Lisbon days (both included; the last 30 days when left out).
 */
export const AdminRefpayNumbersQuery = z.object({ provider_id: providerId, from: day, to: day })
export type AdminRefpayNumbersQueryType = z.infer<typeof AdminRefpayNumbersQuery>
