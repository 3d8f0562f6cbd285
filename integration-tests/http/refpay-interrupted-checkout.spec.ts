import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { RESUME_AFTER_MS } from "../../src/rules/interrupted-completion"
import { pollRefpayPayments } from "../../src/workflows/refpay-sync/poll"
import { refpayOrders, session } from "../fixtures/refpay-orders"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(180 * 1000)

const CREATE_PATH = "/dpm/payments-gwproxy/v2/payments"
const DAY = 86_400_000

/**
 * A server killed during "Place order" after Medusa created the order and before it authorised the REFPAY session
 * (found by the cluster suite, integration-tests/cluster): the order exists, its session is still `pending` without
 * the reference, and the platform holds the reference it created. The poll job resumes the authorisation.
 */
refpayIntegrationSuite("REFPAY checkout interrupted between the order and the payment's authorisation", (ctx) => {
  const { control } = ctx
  const { adminOrder, placeOrder } = refpayOrders(ctx)

  /** The state the killed server left: the session back to `pending`, without the reference Medusa never stored. */
  async function interruptAuthorisation(orderId: string) {
    const before = session(await adminOrder(orderId))
    const pg = ctx.getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    // What initiatePayment wrote: everything but the reference.
    await pg("payment_session").where({ id: before.id }).update({ status: "pending", data: { ...before.data, refpay: null } })
    return { sessionId: before.id as string, refpay: before.data.refpay as { payment_id: string; reference: string; entity: string } }
  }

  it("authorises the session again at the next poll tick: the order shows the reference the platform created, with no second creation", async () => {
    const { orderId } = await placeOrder()
    const { sessionId, refpay } = await interruptAuthorisation(orderId)
    expect(session(await adminOrder(orderId)).data.refpay).toBeNull()
    const creations = async () => (await control("GET", `/requests?path=${CREATE_PATH}&method=POST`)).requests.filter((r: { path: string }) => r.path === CREATE_PATH).length
    const creationsBefore = await creations()

    // A completion that may still be running is left alone.
    await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + RESUME_AFTER_MS - 10_000))
    expect(session(await adminOrder(orderId)).status).toBe("pending")

    await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + RESUME_AFTER_MS + 10_000))
    const resumed = session(await adminOrder(orderId))
    expect(resumed.id).toBe(sessionId)
    expect(resumed.status).toBe("pending_authorization")
    expect(resumed.data.refpay).toMatchObject({ payment_id: refpay.payment_id, entity: refpay.entity, reference: refpay.reference })
    // The platform replayed its reference (same identifiers, same idempotency key): nothing new to pay.
    expect(await creations()).toBe(creationsBefore + 1)
    expect((await control("GET", "/payments")).payments.filter((p: { payment_id: string }) => p.payment_id === refpay.payment_id)).toHaveLength(1)
  })

  it("leaves alone a session interrupted longer ago than a reference can be paid, and resumes it while it is recent", async () => {
    const { orderId } = await placeOrder()
    const { refpay } = await interruptAuthorisation(orderId)

    // A year on, past validity, grace and the late-settlement window: the scan does not even read it.
    await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + 365 * DAY))
    expect(session(await adminOrder(orderId))).toMatchObject({ status: "pending", data: { refpay: null } })

    // The same session, seen when it is recent enough: resumed (so the one above was skipped for its age alone).
    await pollRefpayPayments(ctx.getContainer(), new Date(Date.now() + RESUME_AFTER_MS + 10_000))
    expect(session(await adminOrder(orderId))).toMatchObject({ status: "pending_authorization", data: { refpay: { reference: refpay.reference } } })
  })
})
