import { recordingQuery } from "../../../__tests__/fixtures/recording-query"
import { sessionOfEvent } from "../process-webhook-event"

const SESSION = { id: "payses_1", provider_id: "pp_refpay_refpay", data: { refpay: { payment_id: "RP-1" } } }

/** Medusa's query with one REFPAY session. */
const withSession = () =>
  recordingQuery((entity, filters) =>
    entity === "payment_session" && [filters.id].flat().includes(SESSION.id) ? [SESSION] : []
  )

describe("the session a webhook event is about", () => {
  it("is told from the session's own row, in one query: the sync reads the rest under the lock", async () => {
    const { asked, container } = withSession()
    expect(await sessionOfEvent(container, "payses_1", "rp-1", "pp_refpay_refpay")).toBe("payses_1")
    expect(asked).toEqual([{ entity: "payment_session", fields: ["id", "provider_id", "data"] }])
  })

  it("is not a session of another payment or of another REFPAY account", async () => {
    const { container } = withSession()
    expect(await sessionOfEvent(container, "payses_1", "RP-2", "pp_refpay_refpay")).toBeNull()
    expect(await sessionOfEvent(container, "payses_1", "RP-1", "pp_refpay_porto")).toBeNull()
    expect(await sessionOfEvent(container, "payses_1", "RP-1")).toBe("payses_1")
  })
})
