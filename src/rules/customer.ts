import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import type { RefpayAddress, RefpayCustomer } from "../lib/refpay"
import type { CheckoutAddress, CheckoutCart } from "./checkout-rules"
import type { RefpayCustomerSnapshot } from "./session-data"

/**
 * The customer data Medusa gives a payment session (e-mail, name, phone, billing address), kept in the session data
 * at initiation because authorisation receives none, and sent as the optional customer object of spec 2.5.
 * Only non-empty strings are kept: the platform refuses nulls, and a blank field helps nobody.
 */
export function snapshotCustomer(customer: PaymentCustomerDTO | undefined): RefpayCustomerSnapshot | undefined {
  if (!customer) return undefined
  const address = customer.billing_address
  return compact({
    email: customer.email,
    name: fullName(customer.first_name, customer.last_name) || customer.company_name || undefined,
    phone_number: customer.phone ?? address?.phone,
    billing_address: addressSnapshot(address),
  }) as RefpayCustomerSnapshot
}

/**
 * The cart's contact details as the optional customer object of spec 2.5. Medusa gives a payment provider customer
 * data only for logged-in customers; the cart at completion has them for guests too (e-mail, addresses, phone).
 */
export function customerFromCart(cart: CheckoutCart): RefpayCustomerSnapshot {
  const billing = cart.billing_address ?? cart.shipping_address
  return compact({
    email: cart.email ?? undefined,
    name: fullName(billing?.first_name, billing?.last_name) || billing?.company || undefined,
    phone_number: billing?.phone ?? cart.shipping_address?.phone ?? undefined,
    billing_address: addressSnapshot(cart.billing_address),
    shipping_address: addressSnapshot(cart.shipping_address),
  }) as RefpayCustomerSnapshot
}

/** A Medusa address in the snapshot's (the platform's) field names; undefined when nothing in it is filled. */
function addressSnapshot(address: CheckoutAddress | null | undefined): Record<string, string> | undefined {
  if (!address) return undefined
  const snapshot = compact({
    street: address.address_1,
    complement: address.address_2,
    city: address.city,
    state: address.province,
    country: address.country_code?.toUpperCase(),
    postal_code: address.postal_code,
  }) as Record<string, string>
  return Object.keys(snapshot).length > 0 ? snapshot : undefined
}

function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last].filter(present).join(" ")
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
