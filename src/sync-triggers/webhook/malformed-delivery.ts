import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { REFPAY_MODULE, type RefpayModuleService } from "../../modules/refpay"
import type { MalformedWebhookReason } from "../../rules/webhook"
import type { WebhookAnswer, WebhookDelivery } from "./handle-webhook"

const MALFORMED_ANSWER: Record<MalformedWebhookReason, string> = {
  no_payment_id: "Not a usable REFPAY event: no payment_id; acknowledged and ignored",
  no_event_type: "Not a usable REFPAY event: no event_type; acknowledged and ignored",
  not_json: "Not a usable REFPAY event: the body is not JSON; acknowledged and ignored",
  not_an_object: "Not a usable REFPAY event: the body is not a JSON object; acknowledged and ignored",
}

/**
 * An authentic delivery (the secret was right) that is not a usable REFPAY event: answered 200, counted for the
 * admin's REFPAY page, and otherwise ignored.
 *
 * Why 200 and not 400: nothing in this delivery will ever change, so it can never succeed. A 400 makes the platform
 * deliver it again and again until it gives up, and a platform that sees an endpoint fail for long may stop calling
 * it altogether, taking the good events with it, while nobody at the shop hears of it (only the poll job would keep
 * payments moving, minutes late). The delivery is authentic, so the platform really sent it: the shop owner is the
 * one who must hear about it, and does, from the count and warning on the REFPAY page. Nothing is lost by
 * acknowledging it: an event is only a trigger, and the poll job checks every waiting payment anyway.
 */
export async function acknowledgeMalformed(
  container: MedusaContainer,
  delivery: WebhookDelivery,
  providerId: string,
  problem: MalformedWebhookReason
): Promise<WebhookAnswer> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  logger.warn(
    `REFPAY webhook through ${delivery.route === "refpay" ? "/hooks/refpay" : "Medusa's route"} is not a usable event (${problem}): acknowledged, ignored`
  )
  try {
    await container
      .resolve<RefpayModuleService>(REFPAY_MODULE)
      .recordMalformedWebhook({ route: delivery.route, reason: problem, provider_id: providerId })
  } catch (error) {
    logger.warn(`REFPAY: a malformed webhook delivery could not be counted: ${(error as Error).message}`)
  }
  return { status: 200, body: { received: true, ignored: MALFORMED_ANSWER[problem] } }
}
