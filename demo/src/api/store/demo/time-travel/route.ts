import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { pollRefpayPayments } from "medusa-payment-refpay/sync-triggers/poll/poll"

/**
 * `POST /store/demo/time-travel { days }` (demo only): moves the sandbox's clock forward and runs one poll run of the
 * plugin's poll job at the same moment, so a person trying the demo sees the reminder (D+6) and the expiry and
 * renewal (D+8) without waiting a week. A real shop has no such route: its clock is the real one.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const days = Math.min(30, Math.max(0, Number((req.body as { days?: unknown })?.days) || 0))
  const sandbox = process.env.REFPAY_PAYMENTS_URL!
  const moved = await fetch(`${sandbox}/__sandbox/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advance_days: days }),
  })
  const clock = (await moved.json()) as { offset_ms?: number; now?: string }
  const now = clock.now ? new Date(clock.now) : new Date(Date.now() + days * 86_400_000)
  const results = await pollRefpayPayments(req.scope, now)
  res.json({ now: now.toISOString(), checked: results.length })
}
