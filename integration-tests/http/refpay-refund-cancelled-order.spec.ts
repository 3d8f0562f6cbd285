import { payments, refpayOrders, refundedTotal, session } from "../fixtures/refpay-orders"
import { waitFor } from "../fixtures/wait"
import { refpayIntegrationSuite } from "../harness"

jest.setTimeout(120 * 1000)

/*
 * Medusa's own refund (`POST /admin/payments/:id/refund`, the order page's "Refund") of a REFPAY payment whose order
 * is cancelled: a payment received after the cancellation. Medusa 2.21.2's refund workflow refunds through the
 * provider first and then fails on the cancelled order ("has been canceled"), so the shop owner was told "refused"
 * for money that had gone back (found by the model-based test). The refund must either happen and answer 200, or be
 * refused with nothing changed on either side.
 */
refpayIntegrationSuite("REFPAY: Medusa's refund of a payment received after its order was cancelled", (ctx) => {
  const { api, adminHeaders, control } = ctx
  const { placeOrder, waitForOrder, adminOrder } = refpayOrders(ctx)
  const refund = (paymentId: string, body: Record<string, unknown>) =>
    api.post(`/admin/payments/${paymentId}/refund`, body, adminHeaders()).catch((e: any) => e.response)

  async function latePayment() {
    const placed = await placeOrder()
    await api.post(`/admin/orders/${placed.orderId}/cancel`, {}, adminHeaders())
    await waitFor(async () => (await control("GET", `/payments/${placed.refpay.payment_id}`)).status === "CANCELLED", 20_000, "the reference cancelled")
    await waitForOrder(placed.orderId, (o) => session(o).status === "canceled")
    await control("POST", `/payments/${placed.refpay.payment_id}/pay`, { force: true })
    expect((await api.post(`/admin/refpay/orders/${placed.orderId}/sync`, {}, adminHeaders())).data.action).toBe("capture_late")
    const payment = payments(await adminOrder(placed.orderId))[0]
    return { ...placed, paymentId: payment.id as string }
  }

  it("refunds part, then the rest, on the platform and in Medusa, and answers 200 with the payment", async () => {
    const late = await latePayment()

    const part = await refund(late.paymentId, { amount: 8.32, note: "goodwill" })
    expect(part.status).toBe(200)
    expect(part.data.payment).toMatchObject({ id: late.paymentId })
    expect(part.data.payment.refunds.map((r: any) => Number(r.amount))).toEqual([8.32])
    expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("832")
    expect(refundedTotal(await adminOrder(late.orderId))).toBe(832)

    const rest = await refund(late.paymentId, {})
    expect(rest.status).toBe(200)
    expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("2498")
    const order = await adminOrder(late.orderId)
    expect(refundedTotal(order)).toBe(2498)
    expect(order.status).toBe("canceled")
  })

  it("refuses more than is held, changing nothing on either side", async () => {
    const late = await latePayment()
    const over = await refund(late.paymentId, { amount: 24.99 })
    expect(over.status).toBe(400)
    expect((await control("GET", `/payments/${late.refpay.payment_id}`)).refunded_amount).toBe("0")
    expect(refundedTotal(await adminOrder(late.orderId))).toBe(0)
  })
})
