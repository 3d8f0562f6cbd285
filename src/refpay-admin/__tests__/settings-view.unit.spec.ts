import { resolveOptions } from "../../providers/refpay/options"
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
    const settings = resolveOptions({}, { ...CREDENTIALS, REFPAY_TOKEN_INTERFACE: "t2", REFPAY_REQUESTER_LOGIN: "operator" })
    const view = buildSettingsView(settings, "pp_refpay_refpay")
    expect(view.credentials).toEqual({ client_id: "set", client_secret: "set", channel: "set", scope: "set", webhook_secret: "set" })
    expect(view.required_credentials).toEqual(["client_id", "client_secret", "channel", "scope"])
    expect(view.urls).toMatchObject({ auth_url: null, backoffice_url: "http://localhost:4010/backoffice" })
    const text = JSON.stringify(view)
    for (const value of Object.values(CREDENTIALS)) expect(text).not.toContain(value)
    // Settings the page does not show are not there either.
    expect(text).not.toContain("operator")
  })

  it("says which credentials are missing and which are required", () => {
    const view = buildSettingsView(resolveOptions({}, { REFPAY_CLIENT_ID: "x-client", REFPAY_CLIENT_SECRET: "x-secret" }), "pp_refpay_refpay")
    expect(view.credentials).toEqual({ client_id: "set", client_secret: "set", channel: "missing", scope: "missing", webhook_secret: "missing" })
    expect(view.required_credentials).toEqual(["client_id", "client_secret"])
    expect(view.t2_authorization_form).toBeNull()
  })

  it("names each setting's variable with the registration's account prefix", () => {
    const settings = resolveOptions({ account: "porto" }, { REFPAY_PORTO_CLIENT_ID: "porto-id", REFPAY_CLIENT_SECRET: "shared-secret" })
    const view = buildSettingsView(settings, "pp_refpay_porto")
    expect(view).toMatchObject({ provider_id: "pp_refpay_porto", account: "porto" })
    expect(view.variables).toMatchObject({ clientId: "REFPAY_PORTO_CLIENT_ID", webhookSecret: "REFPAY_PORTO_WEBHOOK_SECRET" })
    expect(JSON.stringify(view)).not.toMatch(/porto-id|shared-secret/)
  })
})
