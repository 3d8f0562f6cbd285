import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import type { RefpayAddress, RefpayCustomer } from "../lib/refpay"
import type { RefpayCustomerSnapshot } from "./session-data"

/**
 * The customer data Medusa gives a payment session (e-mail, name, phone, billing address), kept in the session data
 * at initiation because authorisation receives none, and sent as the optional customer object of spec 2.5.
 * Only non-empty strings are kept: the platform refuses nulls, and a blank field helps nobody.
 */
export function snapshotCustomer(customer: PaymentCustomerDTO | undefined): RefpayCustomerSnapshot | undefined {
  if (!customer) return undefined
  const name = [customer.first_name, customer.last_name].filter(present).join(" ")
  const address = customer.billing_address
  const billing = address
    ? compact({
        street: address.address_1,
        complement: address.address_2,
        city: address.city,
        state: address.province,
        country: address.country_code?.toUpperCase(),
        postal_code: address.postal_code,
      })
    : undefined
  return compact({
    email: customer.email,
    name: name || customer.company_name || undefined,
    phone_number: customer.phone ?? address?.phone,
    billing_address: billing && Object.keys(billing).length > 0 ? billing : undefined,
  }) as RefpayCustomerSnapshot
}

export function customerForPlatform(snapshot: RefpayCustomerSnapshot | undefined): RefpayCustomer | undefined {
  if (!snapshot) return undefined
  const shipping = addressForPlatform(snapshot.shipping_address)
  return {
    email: snapshot.email,
    name: snapshot.name,
    phoneNumber: snapshot.phone_number,
    billingAddress: addressForPlatform(snapshot.billing_address),
    shippings: shipping ? { address: shipping } : undefined,
  }
}

function addressForPlatform(address: Record<string, string> | undefined): RefpayAddress | undefined {
  if (!address) return undefined
  return {
    street: address.street,
    complement: address.complement,
    city: address.city,
    state: address.state,
    country: address.country,
    postalCode: address.postal_code,
  }
}

function present(value: string | null | undefined): value is string {
  return typeof value === "string" && value.trim() !== ""
}

function compact<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(record).filter(([, v]) => v !== undefined && v !== null && (typeof v !== "string" || present(v)))
  ) as Partial<T>
}
