import { resolveOptions } from "../../../../../../config"
import { refusalReason } from "../../../../../../sync-triggers/webhook/refused-delivery"
import { en } from "../../../../../../admin/i18n/en"
import { ptPT } from "../../../../../../admin/i18n/pt-pt"
import { testEventTextIn } from "../../../../../../../integration-tests/fixtures/connection-texts"
import { sameEndpoint, sendSandboxTestEvent, summarizeAttempts } from "../sandbox-test-event"
import { testEventText, type TestEventText } from "../test-event-texts"

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
    ).resolves.toMatchObject({ sent: false, reason: "not_sandbox", message: { code: "not_sandbox", params: {} } })
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
    expect(result).toMatchObject({
      sent: false,
      reason: "no_sandbox_controls",
      message: {
        code: "no_sandbox_controls",
        params: { origin: "http://127.0.0.1:1", controls_url: "http://127.0.0.1:1/__sandbox" },
      },
    })
  })

  it.each([
    [[], { code: "not_tried_yet", params: {} }],
    [[{ at: "1", status: 200, error: null }], { code: "delivered", params: { status: 200 } }],
    [[{ at: "1", status: 401, error: null }], { code: "refused_secret", params: {} }],
    [[{ at: "1", status: 503, error: null }], { code: "shop_answered", params: { status: 503 } }],
    [[{ at: "1", status: null, error: "ECONNREFUSED" }], { code: "not_delivered", params: { error: "ECONNREFUSED" } }],
    [
      [
        { at: "1", status: 401, error: null },
        { at: "2", status: 204, error: null },
      ],
      { code: "delivered", params: { status: 204 } },
    ],
  ])("summarises the sandbox's attempts as a text the admin translates %#", (attempts, summary) => {
    expect(summarizeAttempts(attempts)).toEqual(summary)
  })

  it("has a sentence in English and in Portuguese for every text, every value filled in", () => {
    const texts: TestEventText[] = [
      testEventText("sent_to_this_shop"),
      testEventText("sent_elsewhere", { sandbox_webhook_url: "http://a/hooks/refpay", shop_webhook_url: "http://b" }),
      testEventText("not_sandbox"),
      testEventText("no_sandbox_controls", { origin: "http://a", controls_url: "http://a/__sandbox" }),
      testEventText("no_webhook_url", { shop_webhook_url: "http://b/hooks/refpay" }),
      testEventText("creation_failed"),
      testEventText("controls_silent"),
      ...[[], [200], [401], [503], [null]].map((statuses) =>
        summarizeAttempts(
          statuses.map((status) => ({ at: "1", status, error: status === null ? "ECONNREFUSED" : null }))
        )
      ),
    ]
    expect(new Set(texts.map((text) => text.code)).size).toBe(12)
    for (const text of texts) {
      // translatorOf throws on a missing text or value.
      const english = testEventTextIn(en)(text)
      expect(english).not.toMatch(/undefined|\{\{/)
      expect(testEventTextIn(ptPT)(text)).not.toBe(english)
    }
    expect(testEventTextIn(en)(testEventText("no_webhook_url", { shop_webhook_url: "http://b/hooks/refpay" }))).toBe(
      "The sandbox delivers no webhooks: start it with --webhook-url http://b/hooks/refpay and the shop's webhook secret in REFPAY_SANDBOX_WEBHOOK_SECRET."
    )
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
