import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import { customerForPlatform, customerFromCart, snapshotCustomer } from "../customer"

const LISBON = {
  address_1: "Rua Augusta 1",
  address_2: " ",
  city: "Lisboa",
  province: "",
  country_code: "pt",
  postal_code: "1100-048",
  phone: "+351210000000",
}
const LISBON_SNAPSHOT = { street: "Rua Augusta 1", city: "Lisboa", country: "PT", postal_code: "1100-048" }

describe("the customer snapshot (spec 2.5's optional customer object)", () => {
  it.each([
    [
      "a logged-in customer: name, e-mail, phone and billing address; blanks dropped, country upper-cased",
      { id: "cus_1", email: "ana@example.pt", first_name: "Ana", last_name: " ", phone: null, billing_address: LISBON },
      { email: "ana@example.pt", name: "Ana", phone_number: "+351210000000", billing_address: LISBON_SNAPSHOT },
    ],
    [
      "a company without a person's name, an address with nothing filled",
      { id: "cus_2", email: "geral@loja.pt", company_name: "Loja Lda", billing_address: { address_1: "", city: null } },
      { email: "geral@loja.pt", name: "Loja Lda" },
    ],
  ])("%s", (_name, customer, expected) => {
    expect(snapshotCustomer(customer as unknown as PaymentCustomerDTO)).toEqual(expected)
  })

  it("no customer, no snapshot", () => {
    expect(snapshotCustomer(undefined)).toBeUndefined()
  })

  it.each([
    [
      "a guest's cart: the billing address names and calls, both addresses kept",
      {
        email: "rui@example.pt",
        billing_address: { ...LISBON, first_name: "Rui", last_name: "Sá" },
        shipping_address: { ...LISBON, city: "Porto", phone: "+351220000000" },
      },
      {
        email: "rui@example.pt",
        name: "Rui Sá",
        phone_number: "+351210000000",
        billing_address: LISBON_SNAPSHOT,
        shipping_address: { ...LISBON_SNAPSHOT, city: "Porto" },
      },
    ],
    [
      "no billing address: the shipping address names the customer, its phone is used",
      {
        email: null,
        shipping_address: {
          first_name: "",
          last_name: "",
          company: "Café Central",
          phone: "+351220000000",
          country_code: "pt",
        },
      },
      { name: "Café Central", phone_number: "+351220000000", shipping_address: { country: "PT" } },
    ],
  ])("%s", (_name, cart, expected) => {
    expect(customerFromCart(cart)).toEqual(expected)
  })

  it("goes to the platform in its field names, the shipping address under shippings", () => {
    const snapshot = customerFromCart({ email: "rui@example.pt", billing_address: LISBON, shipping_address: LISBON })
    expect(customerForPlatform(snapshot)).toEqual({
      email: "rui@example.pt",
      name: undefined,
      phoneNumber: "+351210000000",
      billingAddress: {
        street: "Rua Augusta 1",
        complement: undefined,
        city: "Lisboa",
        state: undefined,
        country: "PT",
        postalCode: "1100-048",
      },
      shippings: {
        address: {
          street: "Rua Augusta 1",
          complement: undefined,
          city: "Lisboa",
          state: undefined,
          country: "PT",
          postalCode: "1100-048",
        },
      },
    })
  })
})
