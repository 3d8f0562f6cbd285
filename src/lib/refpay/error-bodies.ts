import { z } from "zod"
import { optionalString } from "./wire-values"

/**
 * The platform's error bodies, one per service (T1 OAuth, T2 and the 401/403 of the payment APIs, the payment APIs'
 * own), read by errors.ts to give a RefpayError its code and detail. Unknown fields pass through.
 */

/** T1 error body, OAuth 2.0 (spec 2.2). */
export const T1ErrorBodySchema = z.looseObject({
  error: z.string(),
  error_description: optionalString,
})
export type T1ErrorBody = z.output<typeof T1ErrorBodySchema>

/** T2 error body (spec 2.4); also what the payment APIs answer with on 401 and 403 (spec 7). */
export const T2ErrorBodySchema = z.looseObject({
  status_code: z.int().nullish(),
  name: z.string(),
  message: optionalString,
  details: z
    .array(
      z.looseObject({
        status: optionalString,
        error_code: optionalString,
        description: optionalString,
        description_detail: optionalString,
      })
    )
    .nullish()
    .transform((v) => v ?? []),
})
export type T2ErrorBody = z.output<typeof T2ErrorBodySchema>

/** Error body of the payment APIs (choice, docs/platform-contract.md): { error_code, message, details }. */
export const PaymentsErrorBodySchema = z.looseObject({
  error_code: z.string(),
  message: optionalString,
  details: z
    .array(z.looseObject({ field: optionalString, message: optionalString }))
    .nullish()
    .transform((v) => v ?? []),
})
export type PaymentsErrorBody = z.output<typeof PaymentsErrorBodySchema>
