import { asValue } from "@medusajs/framework/awilix"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { recordingQuery } from "../../__tests__/fixtures/recording-query"
import refpayOrderPlaced from "../refpay-order-placed"

const ORDER = { id: "order_1", display_id: 42, email: "ana@example.pt", status: "pending" }
const SESSION = {
  id: "payses_1",
  status: "pending_authorization",
  amount: 20,
  currency_code: "eur",
  provider_id: "pp_refpay_refpay",
  payment_collection_id: "paycol_1",
  payment_collection: {
    amount: 20,
    order: { ...ORDER, payment_collections: [{ id: "paycol_1", status: "awaiting" }] },
  },
  payment: null,
  data: {
    session_id: "payses_1",
    amount_cents: 2000,
    refpay: {
      payment_id: "RP-1",
      entity: "12345",
      reference: "123 456 789",
      amount_cents: 2000,
      status: "WAITING",
      created_at: "2026-11-28T09:00:00.000Z",
      expires_at: "2099-12-05T09:00:00.000Z",
    },
  },
}

/** Medusa as the subscriber uses it: what query was asked for, and the notifications created. */
function recordingMedusa() {
  const { asked, container } = recordingQuery((entity) =>
    entity === "order"
      ? [{ ...ORDER, payment_collections: [{ id: "paycol_1", payment_sessions: [{ ...SESSION, payment: null }] }] }]
      : [SESSION]
  )
  const sent: Record<string, unknown>[] = []
  container.register(ContainerRegistrationKeys.LOGGER, asValue({ info() {}, warn() {}, error() {} }))
  container.register(
    Modules.NOTIFICATION,
    asValue({
      async createNotifications(notification: Record<string, unknown>) {
        sent.push(notification)
      },
    })
  )
  return { asked, sent, container }
}

describe("the payment instructions e-mail on order.placed", () => {
  it("reads the order with its REFPAY sessions once, and e-mails its reference with the order's number", async () => {
    const { asked, sent, container } = recordingMedusa()
    await refpayOrderPlaced({ event: { name: "order.placed", data: { id: ORDER.id } }, container } as never)
    expect(sent).toEqual([
      expect.objectContaining({
        to: ORDER.email,
        template: "refpay-payment-instructions",
        data: expect.objectContaining({ order_id: ORDER.id, display_id: 42, entity: "12345" }),
      }),
    ])
    // One query: neither the sessions nor the order again, nor the collections the fulfilment guard's view reads.
    expect(asked.map((query) => query.entity)).toEqual(["order"])
  })
})
