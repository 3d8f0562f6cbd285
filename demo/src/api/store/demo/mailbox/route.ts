import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readMailbox } from "../../../../modules/mailbox/service"

/** `GET /store/demo/mailbox`: the e-mails the demo shop "sent", newest first (demo only; never in a real shop). */
export async function GET(_req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.json({ emails: readMailbox().reverse() })
}
