import { type RunningSandbox } from "../src"
import {
  bearer,
  call,
  control,
  createPayment,
  paymentRequest,
  startWithToken,
  STATUS,
  stopSandbox,
} from "./support/client"

/**
 * keepAsStart(): the integration suites place their orders once and start every test from them as just placed, so
 * reset() must bring those payments back exactly as kept, whatever a test did to them, and forget the rest.
 */
let sb: RunningSandbox
let token: string

beforeAll(async () => ({ sb, token } = await startWithToken()))
afterAll(() => stopSandbox(sb))

const status = async (paymentId: string) =>
  (await call(sb.paymentsUrl, "GET", `${STATUS}${paymentId}`, { headers: bearer(token) })).body.status

describe("keepAsStart(): what reset() comes back to", () => {
  it("brings back the kept payments as they were, forgets the later ones, and never issues a kept reference again", async () => {
    const request = paymentRequest()
    const kept = await createPayment(sb, token, request)
    expect(kept.status).toBe(201)
    await control(sb, "POST", "/clock", { advance_ms: 60_000 })
    sb.keepAsStart()

    for (let round = 0; round < 2; round++) {
      // A test pays the kept one, places another and moves the clock.
      expect((await control(sb, "POST", `/payments/${kept.body.payment_id}/pay`)).status).toBe(200)
      const later = await createPayment(sb, token)
      expect(later.body.additional_data.reference).not.toBe(kept.body.additional_data.reference)
      await control(sb, "POST", "/clock", { advance_days: 3 })
      sb.reset()

      expect((await control(sb, "GET", "/requests")).body.count).toBe(0)
      expect(await status(kept.body.payment_id)).toBe("WAITING")
      expect((await control(sb, "GET", `/payments/${later.body.payment_id}`)).status).toBe(404)
      expect((await control(sb, "GET", "/clock")).body.offset_ms).toBe(60_000)
      // The same creation again is the kept answer (idempotency), not a second payment.
      const replayed = await createPayment(sb, token, request)
      expect(replayed.body.payment_id).toBe(kept.body.payment_id)
      expect(replayed.headers["idempotent-replayed"]).toBe("true")
    }
  })
})
