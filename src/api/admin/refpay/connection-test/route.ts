import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { testRefpayConnection } from "./connection-test"
import { SlidingWindowLimit } from "./rate-limit"
import { selectAccount } from "../../../refpay-accounts"
import type { AdminRefpayAccountBodyType } from "../validators"

/** Each admin user may test the connection this many times a minute (each test asks the platform for a token). */
export const CONNECTION_TESTS_PER_MINUTE = 5
const limit = new SlidingWindowLimit(CONNECTION_TESTS_PER_MINUTE, 60_000)

/**
 * `POST /admin/refpay/connection-test` (`{ provider_id? }`): gets a token from the configured interface and reads the status of a
 * made-up payment (404 PAYMENT_NOT_FOUND proves token and scope), with a fresh client that leaves the shared token
 * cache alone. Answers 200 with `{ connection }` whether the test passed or not; 429 with Retry-After beyond
 * CONNECTION_TESTS_PER_MINUTE per admin user.
 */
export async function POST(
  req: AuthenticatedMedusaRequest<AdminRefpayAccountBodyType>,
  res: MedusaResponse
): Promise<void> {
  // An unknown account is answered (404) before it counts: it calls no platform.
  const { providerId, provider } = await selectAccount(req.scope, req.validatedBody?.provider_id)
  const decision = limit.take(`user:${req.auth_context?.actor_id ?? "unknown"}`)
  if (!decision.allowed) {
    res.setHeader("Retry-After", String(decision.retryAfterSeconds))
    res.status(429).json({
      type: MedusaError.Types.NOT_ALLOWED,
      message: `Too many connection tests: at most ${CONNECTION_TESTS_PER_MINUTE} a minute. Try again in ${decision.retryAfterSeconds} s.`,
    })
    return
  }
  res.status(200).json({ connection: { provider_id: providerId, ...(await testRefpayConnection(provider.settings)) } })
}
