import { DEFAULT_PATHS, DEFAULT_RETRIES, DEFAULT_TIMEOUTS, resolveRefpayConfig } from "../../../lib/refpay"
import { clientConfigOf } from "../client-config"
import { resolveOptions } from "../../../config"

const base = { clientId: "fake-client-id", clientSecret: "obviously-fake-secret-value" }

describe("the platform client's config, made from the provider options", () => {
  it("hands every setting the client uses to the client, under the client's name", () => {
    const settings = resolveOptions(
      {
        ...base,
        tokenInterface: "t2",
        channel: "fake-channel",
        scope: "payments",
        requesterBranch: "porto",
        requesterLogin: "shop",
        requesterName: "Shop",
        requesterEnrollmentNumber: "42",
        t2AuthorizationForm: "bare",
        cancelPath: "/cancel",
        paymentInfoPath: "/info/{payment_id}",
        connectTimeoutMs: 1_000,
        requestTimeoutMs: 2_000,
        bodyTimeoutMs: 3_000,
        maxRetries: 4,
      },
      {}
    )
    expect(clientConfigOf(settings)).toEqual({
      tokenInterface: "t2",
      authUrl: "http://localhost:4010/auth",
      backofficeUrl: "http://localhost:4010/backoffice",
      paymentsUrl: "http://localhost:4010",
      clientId: "fake-client-id",
      clientSecret: "obviously-fake-secret-value",
      channel: "fake-channel",
      scope: "payments",
      requester: { branch: "porto", login: "shop", name: "Shop", enrollmentNumber: "42" },
      t2AuthorizationForm: "bare",
      paths: { cancelPayment: "/cancel", paymentInfo: "/info/{payment_id}" },
      timeouts: { connectMs: 1_000, headersMs: 2_000, bodyMs: 3_000 },
      retries: { maxRetries: 4 },
    })
  })

  it("leaves what a shop did not set to the client's own defaults", () => {
    const client = resolveRefpayConfig(clientConfigOf(resolveOptions(base, {})))
    expect(client.paths).toEqual(DEFAULT_PATHS)
    expect(client.timeouts).toEqual(DEFAULT_TIMEOUTS)
    expect(client.retries).toEqual(DEFAULT_RETRIES)
    expect(client.requester).toEqual({ branch: "", login: "", name: "", enrollmentNumber: "" })
    expect(client.authorizationForm).toBe("bearer")
  })
})
