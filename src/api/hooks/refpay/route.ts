import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { handleRefpayWebhook } from "../../../workflows/refpay-sync/handle-webhook"

/**
 * Door 2: the platform's webhook, answered synchronously. 401 wrong secret, 400 not a REFPAY event, 413 too large
 * (body parser limit in middlewares.ts), 200 once recorded (and, normally, processed).
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const answer = await handleRefpayWebhook(req.scope, {
    body: req.rawBody ?? req.body,
    rawBody: req.rawBody,
    headers: req.headers as Record<string, unknown>,
    door: "refpay",
  })
  res.status(answer.status).json(answer.body)
}
