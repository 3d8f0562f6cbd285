import type { INotificationModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/**
 * Reliance on Medusa: how its Notification module says that nothing can send on a channel, which tells "this shop has
 * no e-mail provider" (logged once, the plugin's e-mails are best effort) from a provider that failed (logged each
 * time). Medusa has no error code for it, only these messages: no provider for the channel, or no module at all.
 */
const NO_PROVIDER = /could not find a notification provider|not enabled|could not resolve 'notification'/i

/** Whether a failed send failed because no notification provider serves its channel. */
export function isNoNotificationProvider(error: unknown): boolean {
  return NO_PROVIDER.test(error instanceof Error ? error.message : String(error))
}

/** A channel no shop serves: the probe's send fails (Medusa records it as a failed notification of this channel). */
const PROBE_CHANNEL = "refpay-contract-probe"

export const notificationNoProviderReliance: MedusaReliance = {
  name: "notification-no-provider",
  behaviour:
    "Medusa's Notification module refuses a notification on a channel no provider serves with a message that names " +
    "it ('Could not find a notification provider for channel …'), and resolving the module fails when it is absent.",
  upstream: "packages/modules/notification/src/services/notification-module-service.ts",
  verified: VERIFIED_ON,
  usedBy: ["src/workflows/refpay-notify/send-notification.ts"],
  async check(container) {
    let refusal: unknown
    try {
      await container
        .resolve<INotificationModuleService>(Modules.NOTIFICATION)
        .createNotifications({ to: "probe@refpay.invalid", channel: PROBE_CHANNEL, template: "probe", data: {} })
    } catch (error) {
      refusal = error
    }
    if (refusal === undefined) throw new Error(`a notification on channel ${PROBE_CHANNEL} was accepted`)
    if (!isNoNotificationProvider(refusal))
      throw new Error(`no provider is now said so: ${(refusal as Error)?.message ?? String(refusal)}`)
  },
}
