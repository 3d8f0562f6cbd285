import { MedusaService } from "@medusajs/framework/utils"
import { RefpayWebhookEvent } from "./models/webhook-event"

export interface RecordEventInput {
  event_key: string
  event_type: string
  payment_id: string
  order_id?: string | null
  door: "medusa" | "refpay"
}

export interface RecordedEvent {
  id: string
  /** True when this event was already processed: the delivery must do nothing. */
  duplicate: boolean
}

class RefpayModuleService extends MedusaService({ RefpayWebhookEvent }) {
  /**
   * Records a delivery. The unique event_key makes this safe across processes: of two concurrent deliveries one
   * inserts, the other finds the row (and both go on to a sync that is itself locked and idempotent).
   */
  async recordWebhookEvent(input: RecordEventInput): Promise<RecordedEvent> {
    const existing = await this.findEvent(input.event_key)
    if (existing) return this.countDelivery(existing)
    try {
      const created = await this.createRefpayWebhookEvents({ ...input, order_id: input.order_id ?? null })
      return { id: created.id, duplicate: false }
    } catch (error) {
      const raced = await this.findEvent(input.event_key)
      if (!raced) throw error
      return this.countDelivery(raced)
    }
  }

  async markWebhookEventProcessed(id: string, outcome: string): Promise<void> {
    await this.updateRefpayWebhookEvents({ id, processed_at: new Date(), outcome })
  }

  private async findEvent(eventKey: string) {
    const [event] = await this.listRefpayWebhookEvents({ event_key: eventKey }, { take: 1 })
    return event
  }

  private async countDelivery(event: { id: string; deliveries: number; processed_at: Date | null }): Promise<RecordedEvent> {
    await this.updateRefpayWebhookEvents({ id: event.id, deliveries: event.deliveries + 1 })
    return { id: event.id, duplicate: event.processed_at !== null }
  }
}

export default RefpayModuleService
