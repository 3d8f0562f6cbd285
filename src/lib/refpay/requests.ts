import { RefpayValidationError } from "./errors"

/**
 * Builders of the JSON bodies the client sends. They check what the platform would refuse anyway (integer cents,
 * order_id length, UUID identifiers) so a mistake fails before a request is made, with a message naming the field.
 * Fixed values of this payment method are set here: currency EUR, payment_method CASH_PAYMENT, brand REFPAY.
 */

export const REFPAY_CURRENCY = "EUR"
export const REFPAY_PAYMENT_METHOD = "CASH_PAYMENT"
export const REFPAY_BRAND = "REFPAY"
export const MAX_ORDER_ID_LENGTH = 35

/** Address object of spec 2.5 in camelCase; sent in snake_case, undefined fields left out. */
export interface RefpayAddress {
  street?: string
  number?: string
  complement?: string
  district?: string
  city?: string
  state?: string
  /** ISO 3166-1 alpha-2, "PT" for Portugal. */
  country?: string
  postalCode?: string
}

/** Optional customer object of spec 2.5 (data.additional_data.customer). */
export interface RefpayCustomer {
  email?: string
  documentNumber?: string
  /** e.g. "nif" for Portugal when required. */
  documentType?: string
  name?: string
  phoneNumber?: string
  billingAddress?: RefpayAddress
  shippings?: { address?: RefpayAddress }
}

export interface CreatePaymentInput {
  /** UUID chosen by the merchant; used later to read the status. */
  paymentId: string
  /** Merchant order reference: unique, 1 to 35 characters. */
  orderId: string
  /** Integer cents > 0 (1999 = 19.99 EUR). */
  amountCents: number
  /** UUID generated once per logical payment and reused on every retry, by us and by any later process. */
  idempotencyKey: string
  /** UUID; generated when omitted. */
  requestId?: string
  customer?: RefpayCustomer
}

export interface CancelOrRefundInput {
  paymentId: string
  /** Integer cents > 0: the full amount to cancel a WAITING payment, up to the refundable rest for a refund. */
  amountCents: number
  /** UUID, one per logical cancel or refund; a second refund needs a new key. */
  idempotencyKey: string
  requestId?: string
}

export interface CreatePaymentWireBody {
  idempotency_key: string
  request_id: string
  order_id: string
  data: {
    amount: number
    currency: typeof REFPAY_CURRENCY
    payment: { payment_id: string; payment_method: typeof REFPAY_PAYMENT_METHOD; brand: typeof REFPAY_BRAND }
    additional_data?: { customer: Record<string, unknown> }
  }
}

export interface CancelWireBody {
  idempotency_key: string
  request_id: string
  payment_id: string
  amount: number
  payment_method: typeof REFPAY_PAYMENT_METHOD
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function buildCreatePaymentBody(input: CreatePaymentInput, requestId: string): CreatePaymentWireBody {
  const operation = "create payment"
  checkIdentifiersAndAmount(operation, input, requestId)
  checkOrderId(operation, input.orderId)

  const data: CreatePaymentWireBody["data"] = {
    amount: input.amountCents,
    currency: REFPAY_CURRENCY,
    payment: { payment_id: input.paymentId, payment_method: REFPAY_PAYMENT_METHOD, brand: REFPAY_BRAND },
  }
  const customer = input.customer ? customerToWire(input.customer) : undefined
  if (customer) data.additional_data = { customer }
  return { idempotency_key: input.idempotencyKey, request_id: requestId, order_id: input.orderId, data }
}

export function buildCancelBody(input: CancelOrRefundInput, requestId: string): CancelWireBody {
  checkIdentifiersAndAmount("cancel/refund", input, requestId)
  return {
    idempotency_key: input.idempotencyKey,
    request_id: requestId,
    payment_id: input.paymentId,
    amount: input.amountCents,
    payment_method: REFPAY_PAYMENT_METHOD,
  }
}

/**
 * A configured path with `{payment_id}` replaced, URL-encoded so an odd id cannot change the path. The status path
 * always has the placeholder; a cancel path may have it (one public script uses .../payments/{payment_id}/cancel).
 */
export function fillPaymentIdPath(operation: string, template: string, paymentId: string): string {
  if (typeof paymentId !== "string" || paymentId.length === 0) {
    refuse(operation, "paymentId is required (the payment_id sent at creation)")
  }
  return template.split("{payment_id}").join(encodeURIComponent(paymentId))
}

/** Converts the customer to snake_case, leaving out undefined fields and objects that end up empty. */
export function customerToWire(customer: RefpayCustomer): Record<string, unknown> | undefined {
  const shippingAddress = customer.shippings?.address ? addressToWire(customer.shippings.address) : undefined
  return compact({
    email: customer.email,
    document_number: customer.documentNumber,
    document_type: customer.documentType,
    name: customer.name,
    phone_number: customer.phoneNumber,
    billing_address: customer.billingAddress ? addressToWire(customer.billingAddress) : undefined,
    shippings: shippingAddress ? { address: shippingAddress } : undefined,
  })
}

function addressToWire(address: RefpayAddress): Record<string, unknown> | undefined {
  return compact({
    street: address.street,
    number: address.number,
    complement: address.complement,
    district: address.district,
    city: address.city,
    state: address.state,
    country: address.country,
    postal_code: address.postalCode,
  })
}

function compact(fields: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept = Object.entries(fields).filter(([, v]) => v !== undefined)
  return kept.length ? Object.fromEntries(kept) : undefined
}

function refuse(operation: string, message: string): never {
  throw new RefpayValidationError({
    message: `REFPAY ${operation} refused before sending: ${message}`,
    code: "CLIENT_VALIDATION",
    operation,
  })
}

/**
 * The fields a creation and a cancel/refund both carry, checked in this order (the first wrong one is reported): the
 * payment, idempotency and request identifiers are UUIDs, the amount is whole cents above 0.
 */
function checkIdentifiersAndAmount(
  operation: string,
  input: Pick<CreatePaymentInput, "paymentId" | "idempotencyKey" | "amountCents">,
  requestId: string
): void {
  checkUuid(operation, "paymentId", input.paymentId)
  checkUuid(operation, "idempotencyKey", input.idempotencyKey)
  checkUuid(operation, "requestId", requestId)
  checkAmountCents(operation, "amountCents", input.amountCents)
}

function checkAmountCents(operation: string, field: string, value: unknown): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    refuse(operation, `${field} must be a whole number of cents greater than 0 (got ${String(value)})`)
  }
}

function checkOrderId(operation: string, value: unknown): void {
  if (typeof value !== "string" || value.length === 0) refuse(operation, "orderId is required")
  if ((value as string).length > MAX_ORDER_ID_LENGTH) {
    refuse(operation, `orderId must be at most ${MAX_ORDER_ID_LENGTH} characters (got ${(value as string).length})`)
  }
}

function checkUuid(operation: string, field: string, value: unknown): void {
  if (typeof value !== "string" || !UUID_PATTERN.test(value)) refuse(operation, `${field} must be a UUID`)
}
