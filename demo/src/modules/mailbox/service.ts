import fs from "node:fs"
import path from "node:path"
import type { ProviderSendNotificationDTO, ProviderSendNotificationResultsDTO } from "@medusajs/framework/types"
import { AbstractNotificationProviderService } from "@medusajs/framework/utils"
import { REFPAY_EMAIL_TEMPLATES, renderRefpayEmail, type RefpayEmailTemplate } from "medusa-payment-refpay/emails"

/** One e-mail as the demo's mailbox keeps it: what a real e-mail provider would have sent. */
export interface MailboxEmail {
  id: string
  to: string
  template: string
  subject: string
  html: string
  text: string
  data: Record<string, unknown>
  sent_at: string
}

/** Where the mailbox is kept (one JSON file, so it survives a restart of the demo). */
export function mailboxFile(): string {
  return process.env.DEMO_MAILBOX_FILE || path.join(process.cwd(), ".mailbox.json")
}

export function readMailbox(): MailboxEmail[] {
  try {
    return JSON.parse(fs.readFileSync(mailboxFile(), "utf8"))
  } catch {
    return []
  }
}

/**
 * The demo's notification provider for the "email" channel: it renders the plugin's templates with the plugin's own
 * `renderRefpayEmail` (Portuguese), exactly as a shop would with any e-mail provider, and keeps them in a file the
 * demo storefront's Mailbox page shows. Nothing leaves the machine.
 */
export default class MailboxNotificationService extends AbstractNotificationProviderService {
  static identifier = "demo-mailbox"

  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const data = (notification.data ?? {}) as Record<string, unknown>
    const rendered = (REFPAY_EMAIL_TEMPLATES as readonly string[]).includes(notification.template)
      ? renderRefpayEmail(
          notification.template as RefpayEmailTemplate,
          data as unknown as Parameters<typeof renderRefpayEmail>[1],
          "pt",
          // A requested reference's e-mail links to the storefront's payment-link page (/payment-collection/<id>).
          { storefrontUrl: process.env.MEDUSA_STOREFRONT_URL }
        )
      : {
          subject: notification.template,
          html: `<pre>${JSON.stringify(data, null, 2)}</pre>`,
          text: JSON.stringify(data),
        }
    const email: MailboxEmail = {
      id: `mail_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`,
      to: notification.to,
      template: notification.template,
      ...rendered,
      data,
      sent_at: new Date().toISOString(),
    }
    const file = mailboxFile()
    const next = [...readMailbox(), email]
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(next, null, 2))
    fs.renameSync(`${file}.tmp`, file)
    return { id: email.id }
  }
}
