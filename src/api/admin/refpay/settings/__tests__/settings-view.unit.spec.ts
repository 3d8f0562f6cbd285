import { REDACTED } from "../../../../../lib/refpay"
import { resolveOptions } from "../../../../../config"
import { buildSettingsView } from "../settings-view"

const CREDENTIALS = {
  REFPAY_CLIENT_ID: "view-client-id-1a2b",
  REFPAY_CLIENT_SECRET: "view-client-secret-3c4d",
  REFPAY_CHANNEL: "view-channel-5e6f",
  REFPAY_SCOPE: "payments view-scope-7a8b",
  REFPAY_WEBHOOK_SECRET: "view-webhook-secret-9c0d",
}

describe("settings view", () => {
  it("reports credentials as set or missing, and never their values, even when a secret is in a URL-like setting", () => {
    const settings = resolveOptions(
      {},
      { ...CREDENTIALS, REFPAY_TOKEN_INTERFACE: "t2", REFPAY_REQUESTER_LOGIN: "operator" }
    )
    const view = buildSettingsView(settings, "pp_refpay_refpay")
    expect(view.credentials).toEqual({
      client_id: "set",
      client_secret: "set",
      channel: "set",
      scope: "set",
      webhook_secret: "set",
    })
    expect(view.required_credentials).toEqual(["client_id", "client_secret", "channel", "scope"])
    expect(view.urls).toMatchObject({ auth_url: null, backoffice_url: "http://localhost:4010/backoffice" })
    const text = JSON.stringify(view)
    for (const value of Object.values(CREDENTIALS)) expect(text).not.toContain(value)
    // Settings the page does not show are not there either.
    expect(text).not.toContain("operator")
  })

  it("says which credentials are missing and which are required", () => {
    const view = buildSettingsView(
      resolveOptions({}, { REFPAY_CLIENT_ID: "x-client", REFPAY_CLIENT_SECRET: "x-secret" }),
      "pp_refpay_refpay"
    )
    expect(view.credentials).toEqual({
      client_id: "set",
      client_secret: "set",
      channel: "missing",
      scope: "missing",
      webhook_secret: "missing",
    })
    expect(view.required_credentials).toEqual(["client_id", "client_secret"])
    expect(view.t2_authorization_form).toBeNull()
  })

  it("names each setting's variable with the account's prefix", () => {
    const settings = resolveOptions(
      { account: "porto" },
      { REFPAY_PORTO_CLIENT_ID: "porto-id", REFPAY_CLIENT_SECRET: "shared-secret" }
    )
    const view = buildSettingsView(settings, "pp_refpay_porto")
    expect(view).toMatchObject({ provider_id: "pp_refpay_porto", account: "porto" })
    expect(view.variables).toMatchObject({
      clientId: "REFPAY_PORTO_CLIENT_ID",
      webhookSecret: "REFPAY_PORTO_WEBHOOK_SECRET",
    })
    expect(JSON.stringify(view)).not.toMatch(/porto-id|shared-secret/)
  })
})

describe("settings view URLs", () => {
  it("hides user:pass@ and every query value in the URLs and paths it echoes, keeping host, path and parameter names", () => {
    const settings = resolveOptions(
      {},
      {
        ...CREDENTIALS,
        REFPAY_AUTH_URL: "http://shop-user:shop-pass-1234@localhost:4010/auth?token=tok-abc-123",
        REFPAY_PAYMENTS_URL: "http://localhost:4010/?key=k-live-999&tenant=acme",
        REFPAY_PAYMENT_INFO_PATH: "/dpm/hub-payment-info/{payment_id}?apikey=info-key-777",
        REFPAY_CANCEL_PATH: "/dpm/cancel?sig=cancel-sig-555",
      }
    )
    const view = buildSettingsView(settings, "pp_refpay_refpay")
    expect(view.urls).toMatchObject({
      auth_url: "http://***:***@localhost:4010/auth?token=***",
      payments_url: "http://localhost:4010/?key=***&tenant=***",
    })
    expect(view.paths).toEqual({
      cancel_path: "/dpm/cancel?sig=***",
      payment_info_path: "/dpm/hub-payment-info/{payment_id}?apikey=***",
    })
    expect(JSON.stringify(view)).not.toMatch(/shop-user|shop-pass|tok-abc|k-live|acme|info-key|cancel-sig/)
  })

  it("hides a configured credential written into a URL's path too", () => {
    const settings = resolveOptions(
      {},
      { ...CREDENTIALS, REFPAY_AUTH_URL: `http://localhost:4010/${CREDENTIALS.REFPAY_CLIENT_SECRET}/auth` }
    )
    expect(buildSettingsView(settings, "pp_refpay_refpay").urls.auth_url).toBe(`http://localhost:4010/${REDACTED}/auth`)
  })

  it("shows the sandbox defaults as they are", () => {
    const view = buildSettingsView(resolveOptions({}, CREDENTIALS), "pp_refpay_refpay")
    expect(view.urls).toMatchObject({ auth_url: "http://localhost:4010/auth", payments_url: "http://localhost:4010" })
  })
})
