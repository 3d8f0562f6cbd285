import { z } from "zod"
import { optionalString } from "./wire-values"

/**
 * The token services' answers (T1 OAuth client credentials, T2 back-office), both read into one TokenGrant for the
 * token cache. Nothing from the wire is cast: a 2xx body that fails its schema becomes a RefpayResponseError.
 */

/** What a TokenSource hands the token cache, whichever interface issued the token. */
export interface TokenGrant {
  accessToken: string
  expiresInSeconds: number
  scope?: string
}

/** T1 TokenResponse (spec 2.1). */
export const T1TokenResponseSchema = z
  .looseObject({
    access_token: z.string().min(1),
    token_type: z.string(),
    expires_in: z.int().positive(),
    scope: optionalString,
  })
  .transform((b): TokenGrant => ({ accessToken: b.access_token, expiresInSeconds: b.expires_in, scope: b.scope }))

/** T2 token response (spec 2.3): expires_in is a string holding a number. */
export const T2TokenResponseSchema = z
  .looseObject({
    access_token: z.string().min(1),
    expires_in: z.union([
      z.string().regex(/^\d+$/, "expected a string holding a whole number of seconds"),
      z.int().positive(),
    ]),
  })
  .transform((b): TokenGrant => ({ accessToken: b.access_token, expiresInSeconds: Number(b.expires_in) }))
  .refine((g) => g.expiresInSeconds > 0, { message: "expires_in must be greater than 0", path: ["expires_in"] })
