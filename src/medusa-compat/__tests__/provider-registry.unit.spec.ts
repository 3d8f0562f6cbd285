import type { Logger, ProviderWebhookPayload } from "@medusajs/framework/types"
import { registeredProvider, RefpayRegistryError, type WebhookDispatch } from "../provider-registry"
import { RefpayProviderService } from "../../providers/refpay/service"

const logger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger

/**
 * What Medusa 2.21.2's payment module does with `getWebhookActionAndData({ provider, payload })`: look the provider
 * up by id (`pp_` prefixed) and hand it the payload as given; an unknown id throws. `deliver` says how the payload
 * reaches the provider, so a Medusa that stops passing it through unchanged can be played.
 */
function paymentModule(
  providers: Record<string, RefpayProviderService>,
  deliver = (payload: ProviderWebhookPayload["payload"]) => payload,
  /** 2.21.2 prefixes `pp_` only when missing; 2.18.0 to 2.21.1 always do (`pp_pp_refpay_x` for a full id). */
  prefix: "when_missing" | "always" = "when_missing"
) {
  const calls: string[] = []
  const dispatch: WebhookDispatch = {
    async getWebhookActionAndData({ provider, payload }) {
      const id = prefix === "always" || !provider.startsWith("pp_") ? `pp_${provider}` : provider
      calls.push(id)
      const found = providers[id]
      if (!found) throw new Error(`Could not resolve Payment Provider: ${id}`)
      return found.getWebhookActionAndData(deliver(payload))
    },
  }
  return { dispatch, calls }
}

const provider = (account: string) =>
  new RefpayProviderService({ logger }, { clientId: `fake-${account}`, clientSecret: "fake-secret", account })

describe("the registry of REFPAY accounts", () => {
  it("finds each account's own provider through the payment module's public webhook dispatch, once per id", async () => {
    const lisboa = provider("lisboa")
    const porto = provider("porto")
    const { dispatch, calls } = paymentModule({ pp_refpay_lisboa: lisboa, pp_refpay_porto: porto })
    expect(await registeredProvider(dispatch, "pp_refpay_porto")).toBe(porto)
    expect(await registeredProvider(dispatch, "pp_refpay_lisboa")).toBe(lisboa)
    expect(await registeredProvider(dispatch, "pp_refpay_porto")).toBe(porto)
    expect(calls).toEqual(["pp_refpay_porto", "pp_refpay_lisboa"])
  })

  it("finds them on Medusa 2.18.0 to 2.21.1 too, whose dispatch prefixes pp_ to any id it is given", async () => {
    const lisboa = provider("lisboa")
    const { dispatch, calls } = paymentModule({ pp_refpay_lisboa: lisboa }, undefined, "always")
    expect(await registeredProvider(dispatch, "pp_refpay_lisboa")).toBe(lisboa)
    expect(calls).toEqual(["pp_refpay_lisboa"])
  })

  it("keeps each Medusa app's providers apart (one payment module each)", async () => {
    const first = provider("lisboa")
    const second = provider("lisboa")
    expect(await registeredProvider(paymentModule({ pp_refpay_lisboa: first }).dispatch, "pp_refpay_lisboa")).toBe(
      first
    )
    expect(await registeredProvider(paymentModule({ pp_refpay_lisboa: second }).dispatch, "pp_refpay_lisboa")).toBe(
      second
    )
  })

  it("says the payment module has no such provider, and tries again next time", async () => {
    const providers: Record<string, RefpayProviderService> = {}
    const { dispatch } = paymentModule(providers)
    await expect(registeredProvider(dispatch, "pp_refpay_porto")).rejects.toThrow(
      new RefpayRegistryError(
        "the payment module has no provider pp_refpay_porto (Could not resolve Payment Provider: pp_refpay_porto)"
      )
    )
    providers.pp_refpay_porto = provider("porto")
    expect(await registeredProvider(dispatch, "pp_refpay_porto")).toBe(providers.pp_refpay_porto)
  })

  it("fails loudly, naming the cause, when Medusa stops handing the provider the payload it was given", async () => {
    const serialised = paymentModule({ pp_refpay_lisboa: provider("lisboa") }, (payload) =>
      JSON.parse(JSON.stringify(payload))
    )
    await expect(registeredProvider(serialised.dispatch, "pp_refpay_lisboa")).rejects.toThrow(
      /did not reach REFPAY's provider pp_refpay_lisboa with the payload it was given: this Medusa version changed how it dispatches/
    )
  })

  it("answers a real webhook payload as before: nothing for Medusa's core to do", async () => {
    const lisboa = provider("lisboa")
    expect(await lisboa.getWebhookActionAndData({ data: { payment_id: "x" }, rawData: "{}", headers: {} })).toEqual({
      action: "not_supported",
    })
  })
})
