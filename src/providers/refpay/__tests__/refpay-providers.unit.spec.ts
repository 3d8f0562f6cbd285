import { asValue } from "@medusajs/framework/awilix"
import { createMedusaContainer, Modules } from "@medusajs/framework/utils"
import { refpayProviderIds } from "../refpay-providers"

/** Medusa's payment module as far as the accounts' lookup uses it: how often it listed its providers. */
function countingPayments(fail = false) {
  const listed: number[] = []
  const payments = {
    async listPaymentProviders() {
      listed.push(listed.length + 1)
      if (fail && listed.length === 1) throw new Error("database unavailable")
      return [{ id: "pp_system_default" }, { id: "pp_refpay_porto" }, { id: "pp_refpay_lisboa" }]
    },
  }
  const container = createMedusaContainer()
  container.register(Modules.PAYMENT, asValue(payments))
  return { listed, container }
}

describe("the shop's REFPAY accounts", () => {
  it("are read from the payment module once per app (every webhook delivery asks), sorted", async () => {
    const { listed, container } = countingPayments()
    expect(await refpayProviderIds(container)).toEqual(["pp_refpay_lisboa", "pp_refpay_porto"])
    expect(await refpayProviderIds(container)).toEqual(["pp_refpay_lisboa", "pp_refpay_porto"])
    expect(listed).toHaveLength(1)
    // Another app (another payment module) reads its own.
    const other = countingPayments()
    await refpayProviderIds(other.container)
    expect(other.listed).toHaveLength(1)
  })

  it("are read again after a failed read, which is not kept", async () => {
    const { listed, container } = countingPayments(true)
    await expect(refpayProviderIds(container)).rejects.toThrow("database unavailable")
    expect(await refpayProviderIds(container)).toEqual(["pp_refpay_lisboa", "pp_refpay_porto"])
    expect(listed).toHaveLength(2)
  })
})
