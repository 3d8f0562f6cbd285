import { en } from "../../../../../admin/i18n/en"
import { ptPT } from "../../../../../admin/i18n/pt-pt"
import { warningIn } from "../../../../../../integration-tests/fixtures/connection-texts"
import { shopBaseUrl, webhookSetup, webhookWarnings, type WebhookSummary, type WebhookWarning } from "../webhook-health"

const inEnglish = warningIn(en)
const inPortuguese = warningIn(ptPT)

const now = new Date("2026-11-23T12:00:00Z")
const ago = (ms: number) => new Date(now.getTime() - ms)
const MINUTE = 60_000
const HOUR = 60 * MINUTE

const quiet: WebhookSummary = {
  environment: "sandbox",
  secretConfigured: true,
  webhookUrl: "http://localhost:9000/hooks/refpay",
  lastDeliveryAt: null,
  waiting: { count: 0, oldest_created_at: null },
  refusals: [],
  malformed: [],
}
const codes = (summary: Partial<WebhookSummary>) =>
  webhookWarnings({ ...quiet, ...summary }, now).map((w) => `${w.code}:${w.level}`)

describe("webhook warnings", () => {
  it.each<[string, Partial<WebhookSummary>, string[]]>([
    ["nothing waiting, nothing received: nothing to say", {}, []],
    [
      "a payment placed 5 minutes ago, no delivery yet: too early",
      { waiting: { count: 1, oldest_created_at: ago(5 * MINUTE) } },
      [],
    ],
    [
      "a payment placed an hour ago, no delivery ever",
      { waiting: { count: 1, oldest_created_at: ago(HOUR) } },
      ["no_recent_delivery:warning"],
    ],
    [
      "payments waiting, the last delivery 25 hours ago",
      { waiting: { count: 3, oldest_created_at: ago(2 * HOUR) }, lastDeliveryAt: ago(25 * HOUR) },
      ["no_recent_delivery:warning"],
    ],
    [
      "payments waiting, a delivery an hour ago",
      { waiting: { count: 3, oldest_created_at: ago(2 * HOUR) }, lastDeliveryAt: ago(HOUR) },
      [],
    ],
    ["no secret configured", { secretConfigured: false }, ["no_secret:error"]],
    [
      "refused 2 hours ago and nothing accepted since",
      {
        refusals: [
          {
            route: "refpay",
            provider_id: "pp_refpay_refpay",
            reason: "wrong_secret",
            refused_count: 3,
            first_refused_at: ago(3 * HOUR),
            last_refused_at: ago(2 * HOUR),
          },
        ],
      },
      ["refused_recently:error"],
    ],
    [
      "refused 2 hours ago, accepted since",
      {
        lastDeliveryAt: ago(HOUR),
        refusals: [
          {
            route: "medusa",
            provider_id: "pp_refpay_refpay",
            reason: "missing_secret",
            refused_count: 1,
            first_refused_at: ago(2 * HOUR),
            last_refused_at: ago(2 * HOUR),
          },
        ],
      },
      ["refused_recently:warning"],
    ],
    [
      "refused two days ago: old news",
      {
        refusals: [
          {
            route: "refpay",
            provider_id: "pp_refpay_refpay",
            reason: "wrong_secret",
            refused_count: 1,
            first_refused_at: ago(48 * HOUR),
            last_refused_at: ago(48 * HOUR),
          },
        ],
      },
      [],
    ],
    [
      "production on plain http at localhost",
      { environment: "production", webhookUrl: "http://localhost:9000/hooks/refpay" },
      ["url_not_https:warning", "url_not_public:warning"],
    ],
    [
      "production on a public https address",
      { environment: "production", webhookUrl: "https://shop.example.pt/hooks/refpay" },
      [],
    ],
  ])("%s", (_name, summary, expected) => {
    expect(codes(summary)).toEqual(expected)
  })

  it("counts the recent refusals and names the reason of the latest", () => {
    const [warning] = webhookWarnings(
      {
        ...quiet,
        refusals: [
          {
            route: "refpay",
            provider_id: "pp_refpay_refpay",
            reason: "wrong_secret",
            refused_count: 4,
            first_refused_at: ago(5 * HOUR),
            last_refused_at: ago(HOUR),
          },
          {
            route: "medusa",
            provider_id: "pp_refpay_refpay",
            reason: "missing_secret",
            refused_count: 1,
            first_refused_at: ago(3 * HOUR),
            last_refused_at: ago(3 * HOUR),
          },
        ],
      },
      now
    )
    expect(warning!.params).toEqual({
      count: 5,
      last_at: "2026-11-23T11:00:00.000Z",
      reason: "wrong_secret",
      accepted_since: false,
    })
    expect(inEnglish(warning!)).toMatch(
      /^5 webhook deliveries were refused \(401\), the last at 2026-11-23T11:00:00.000Z, with a secret that is not REFPAY_WEBHOOK_SECRET\. Give the platform the same secret/
    )
    expect(inPortuguese(warning!)).toMatch(
      /^5 entregas de webhooks foram recusadas \(401\).*não é o REFPAY_WEBHOOK_SECRET/
    )
  })
})

describe("what the admin says of each warning", () => {
  const refusal = { route: "refpay" as const, provider_id: "pp_refpay_refpay", first_refused_at: ago(2 * HOUR) }
  const every: [string, Partial<WebhookSummary>][] = [
    [
      "no secret, a refusal just now, nothing accepted since",
      {
        secretConfigured: false,
        refusals: [{ ...refusal, reason: "no_secret_configured", refused_count: 1, last_refused_at: ago(HOUR) }],
      },
    ],
    [
      "a refusal, deliveries accepted since",
      {
        lastDeliveryAt: ago(MINUTE),
        refusals: [{ ...refusal, reason: "missing_secret", refused_count: 2, last_refused_at: ago(HOUR) }],
      },
    ],
    [
      "a malformed delivery of a reason this admin does not know",
      {
        malformed: [
          {
            route: "medusa",
            provider_id: "pp_refpay_refpay",
            reason: "from_the_future" as never,
            received_count: 1,
            first_received_at: ago(2 * HOUR),
            last_received_at: ago(HOUR),
          },
        ],
      },
    ],
    ["one payment waiting, no delivery ever", { waiting: { count: 1, oldest_created_at: ago(48 * HOUR) } }],
    [
      "payments waiting, the last delivery days ago, a local http URL in production",
      {
        environment: "production",
        webhookUrl: "http://localhost:9000/hooks/refpay",
        lastDeliveryAt: ago(72 * HOUR),
        waiting: { count: 3, oldest_created_at: ago(48 * HOUR) },
      },
    ],
  ]

  it.each(every)("%s: a sentence in English and in Portuguese for each, every value filled in", (_name, summary) => {
    const warnings: WebhookWarning[] = webhookWarnings({ ...quiet, ...summary }, now)
    expect(warnings.length).toBeGreaterThan(0)
    for (const warning of warnings) {
      // translatorOf throws on a missing text or value.
      const english = inEnglish(warning)
      const portuguese = inPortuguese(warning)
      expect(english).not.toMatch(/undefined|\{\{/)
      expect(portuguese).not.toMatch(/undefined|\{\{/)
      expect(portuguese).not.toBe(english)
    }
  })

  it("says the variants of each sentence", () => {
    const said = every.flatMap(([, summary]) => webhookWarnings({ ...quiet, ...summary }, now).map(inEnglish))
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^REFPAY_WEBHOOK_SECRET is not set/),
        expect.stringMatching(
          /^1 webhook delivery was refused \(401\), the last at 2026-11-23T11:00:00.000Z, because this shop has no REFPAY_WEBHOOK_SECRET\. Give the platform/
        ),
        expect.stringMatching(
          /^2 webhook deliveries were refused .*without any secret .*\. Deliveries have been accepted since/
        ),
        expect.stringMatching(
          /^1 authentic webhook delivery was not a usable REFPAY event, .*, \(from_the_future\)\. They were/
        ),
        expect.stringMatching(/^No webhook delivery has arrived ever, while 1 payment is waiting/),
        expect.stringMatching(
          /^No webhook delivery has arrived for more than 24 hours \(the last at 2026-11-20T12:00:00.000Z\), while 3 payments are waiting/
        ),
        expect.stringMatching(/^The webhook URL is not https/),
        expect.stringMatching(/^The webhook URL names this machine/),
      ])
    )
  })
})

describe("authentic deliveries that are not usable REFPAY events", () => {
  const malformed = (reason: "no_payment_id" | "not_json", count: number, lastAgo: number) => ({
    route: "refpay" as const,
    provider_id: "pp_refpay_refpay",
    reason,
    received_count: count,
    first_received_at: ago(lastAgo + HOUR),
    last_received_at: ago(lastAgo),
  })

  it("warns about recent ones, counting them and naming the reason of the latest; not about old ones", () => {
    expect(codes({ malformed: [malformed("no_payment_id", 2, HOUR)] })).toEqual(["malformed_recently:warning"])
    expect(codes({ malformed: [malformed("no_payment_id", 2, 48 * HOUR)] })).toEqual([])
    const [warning] = webhookWarnings(
      { ...quiet, malformed: [malformed("no_payment_id", 2, HOUR), malformed("not_json", 1, 3 * HOUR)] },
      now
    )
    expect(inEnglish(warning!)).toMatch(
      /^3 authentic webhook deliveries were not usable REFPAY events, the last at 2026-11-23T11:00:00.000Z, without a payment_id/
    )
    expect(inEnglish(warning!)).toMatch(/acknowledged \(200\)/)
    expect(inEnglish(warning!)).toMatch(/poll job/)
    expect(inPortuguese(warning!)).toMatch(
      /^3 entregas autênticas de webhooks .* sem payment_id\. Foram confirmadas \(200\)/
    )
  })
})

describe("webhook URL", () => {
  it("uses Medusa's absolute admin.backendUrl, else the request's host", () => {
    expect(shopBaseUrl("https://shop.example.pt/", { protocol: "http", host: "10.0.0.5:9000" })).toEqual({
      base: "https://shop.example.pt",
      source: "backend_url",
    })
    expect(shopBaseUrl("/", { protocol: "http", host: "localhost:9000" })).toEqual({
      base: "http://localhost:9000",
      source: "request",
    })
    expect(shopBaseUrl(undefined, { protocol: "https", host: "loja.pt" })).toEqual({
      base: "https://loja.pt",
      source: "request",
    })
  })

  it("gives both webhook routes and how they authenticate, never the secret", () => {
    const setup = webhookSetup({ base: "https://loja.pt", source: "backend_url" }, "pp_refpay_refpay", false, true)
    expect(setup).toMatchObject({
      url: "https://loja.pt/hooks/refpay",
      medusa_url: "https://loja.pt/hooks/payment/refpay_refpay",
      authentication: { header: "x-refpay-webhook-secret", secret: "set" },
    })
  })

  it("names the account in the URL when the shop has several REFPAY accounts", () => {
    const setup = webhookSetup({ base: "https://loja.pt", source: "backend_url" }, "pp_refpay_porto", true, false)
    expect(setup).toMatchObject({
      url: "https://loja.pt/hooks/refpay/porto",
      medusa_url: "https://loja.pt/hooks/payment/refpay_porto",
      authentication: { secret: "missing" },
    })
  })
})
