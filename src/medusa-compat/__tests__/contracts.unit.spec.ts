import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { checkMedusaReliances, MEDUSA_RELIANCES } from "../contracts"

/**
 * A Medusa that changed under the plugin: no REFPAY provider, tables without columns, an order module without
 * transactions, a payment module without refunds, a notification module that takes any channel. The checks that
 * probe Medusa's workflow engine and data layer run against the real ones.
 */
function changedMedusa(): MedusaContainer {
  const services: Record<string, unknown> = {
    [Modules.PAYMENT]: {
      listPaymentProviders: async () => [{ id: "pp_system_default" }],
      createPaymentSession() {},
      authorizePaymentSession() {},
      deletePaymentSession() {},
      deleteRefunds() {},
    },
    [Modules.NOTIFICATION]: { createNotifications: async () => [] },
    [Modules.ORDER]: { listOrderTransactions() {} },
    [ContainerRegistrationKeys.PG_CONNECTION]: {
      raw: async () => ({ rows: [{ table_name: "payment_session", column_name: "id" }] }),
    },
  }
  return { resolve: (key: string) => services[key] } as unknown as MedusaContainer
}

describe("the reliances on Medusa, checked against the Medusa the plugin runs on", () => {
  it("names each reliance that no longer holds, with what was seen, and never throws", async () => {
    const results = await checkMedusaReliances(changedMedusa())
    expect(results.map((r) => r.name)).toEqual(MEDUSA_RELIANCES.map((r) => r.name))
    const failed = Object.fromEntries(results.filter((r) => !r.ok).map((r) => [r.name, r.detail]))
    expect(failed).toEqual({
      "provider-registry": "no pp_refpay_* provider is registered in this app",
      "medusa-tables": expect.stringMatching(/^missing columns: payment_session\.provider_id, .*order\.is_draft_order/),
      "payment-module-api": "missing: order.deleteOrderTransactions",
      "refund-before-provider": "the payment module has no refundPayment",
      "notification-no-provider": "a notification on channel refpay-contract-probe was accepted",
    })
  })

  it("says each reliance's behaviour, upstream source and the files that would break", () => {
    for (const reliance of MEDUSA_RELIANCES) {
      expect(reliance.behaviour.length).toBeGreaterThan(40)
      expect(reliance.upstream).toBeTruthy()
      expect(reliance.usedBy.length).toBeGreaterThan(0)
      expect(reliance.verified).toMatch(/2\.18\.0/)
    }
  })
})
