import { resolveOptions } from "../../../../../../config"
import { refusalReason } from "../../../../../../sync-triggers/webhook/refused-delivery"
import { sameEndpoint, sendSandboxTestEvent, summarizeAttempts } from "../sandbox-test-event"

describe("sandbox test event", () => {
  it("is refused outside the sandbox environment, before anything is called", async () => {
    const settings = resolveOptions(
      {},
      {
        REFPAY_ENVIRONMENT: "production",
        REFPAY_AUTH_URL: "https://auth.refpay.example",
        REFPAY_PAYMENTS_URL: "https://api.refpay.example",
        REFPAY_CLIENT_ID: "prod-id",
        REFPAY_CLIENT_SECRET: "prod-secret",
        REFPAY_WEBHOOK_SECRET: "a-production-webhook-secret",
      }
    )
    const createClient = jest.fn()
    await expect(
      sendSandboxTestEvent(settings, "https://shop.example/hooks/refpay", { createClient })
    ).resolves.toMatchObject({ sent: false, reason: "not_sandbox" })
    expect(createClient).not.toHaveBeenCalled()
  })

  it("says plainly when the sandbox has no controls (a homologation platform, not the simulator)", async () => {
    const settings = resolveOptions(
      {},
      {
        REFPAY_PAYMENTS_URL: "http://127.0.0.1:1",
        REFPAY_AUTH_URL: "http://127.0.0.1:1/auth",
        REFPAY_CLIENT_ID: "a",
        REFPAY_CLIENT_SECRET: "b",
      }
    )
    const result = await sendSandboxTestEvent(settings, "http://localhost:9000/hooks/refpay")
    expect(result).toMatchObject({ sent: false, reason: "no_sandbox_controls" })
  })

  it.each([
    [[], /not tried to deliver/],
    [[{ at: "1", status: 200, error: null }], /delivered the event \(HTTP 200\)/],
    [[{ at: "1", status: 401, error: null }], /secret is not REFPAY_WEBHOOK_SECRET/],
    [[{ at: "1", status: 503, error: null }], /HTTP 503; the sandbox retries/],
    [[{ at: "1", status: null, error: "ECONNREFUSED" }], /could not deliver the event \(ECONNREFUSED\)/],
  ])("summarises the sandbox's attempts %#", (attempts, summary) => {
    expect(summarizeAttempts(attempts)).toMatch(summary)
  })

  it("counts localhost and 127.0.0.1 as this machine when comparing webhook URLs", () => {
    expect(sameEndpoint("http://127.0.0.1:9000/hooks/refpay", "http://localhost:9000/hooks/refpay")).toBe(true)
    expect(sameEndpoint("http://127.0.0.1:9001/hooks/refpay", "http://localhost:9000/hooks/refpay")).toBe(false)
    expect(sameEndpoint("https://shop.pt/hooks/refpay/", "https://shop.pt/hooks/refpay")).toBe(true)
    expect(sameEndpoint("https://shop.pt/hooks/payment/refpay_refpay", "https://shop.pt/hooks/refpay")).toBe(false)
  })
})

describe("refused delivery reason", () => {
  it("tells a missing secret from a wrong one, from what was presented and not its value", () => {
    expect(refusalReason({}, "shop-secret")).toBe("missing_secret")
    expect(refusalReason({ "X-Refpay-Webhook-Secret": "nope" }, "shop-secret")).toBe("wrong_secret")
    expect(refusalReason({ authorization: "Basic cmVmcGF5Om5vcGU=" }, "shop-secret")).toBe("wrong_secret")
    expect(refusalReason({ authorization: "Bearer abc" }, "shop-secret")).toBe("missing_secret")
    expect(refusalReason({ "x-refpay-webhook-secret": "anything" }, undefined)).toBe("no_secret_configured")
  })
})
