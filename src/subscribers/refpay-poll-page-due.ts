import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { checkHandedPage, POLL_PAGE_DUE, type PollPageDue } from "../sync-triggers/poll/due-pages"

/**
 * A page of due checks a poll run handed to the event bus (REFPAY_POLL_SPREAD): checked on whichever process took
 * it. Should it fail or this process stop, its checks are due again once the page's lease ends (`pageLeaseMs`).
 */
export default async function refpayPollPageDue({ event, container }: SubscriberArgs<PollPageDue>) {
  const results = await checkHandedPage(container, event.data)
  const changed = results.filter((result) => result.action !== "record_check" && result.action !== "none").length
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .info(
      `REFPAY poll: a page of ${event.data.checks.length} due checks of ${event.data.provider_id} checked on this process (${changed} changed)`
    )
}

export const config: SubscriberConfig = { event: POLL_PAGE_DUE }
