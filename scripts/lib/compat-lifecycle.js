"use strict"
// The life of a REFPAY payment in one compat app (scripts/compat.js), driven over HTTP exactly as a shop and the
// platform would: the store API with the publishable key, the admin API as an admin user, the plugin's and Medusa's
// webhook routes, and the packaged sandbox's controls (`/__sandbox/...`: pay, clock). Each step is one test: it
// passes, fails (with what was asked and answered), or is "n/a" where the version has no such feature.

/** The key the plugin sends a refund under: from the plugin build the tier packed (read when the step runs). */
const refundKeyFor = (...args) => require("../../.medusa/server/src/rules/identifiers").refundKeyFor(...args)

/** The customer's address on the tier's orders. */
const ADDRESS = {
  first_name: "João",
  last_name: "Pereira",
  address_1: "Avenida dos Aliados 10",
  postal_code: "4000-064",
  city: "Porto",
  province: "Porto",
  phone: "+351223456789",
  country_code: "pt",
}

/** Refund asked in the partial-refund step, in euros (Medusa's major units). */
const PARTIAL_REFUND_EUR = 5

class NotApplicable extends Error {
  name = "NotApplicable"
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Retries `check` until it returns something truthy; fails naming `what` and the last value seen. */
async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs
  let last
  for (;;) {
    last = await check()
    if (last && last.ok !== false) return last
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs / 1000} s waiting for ${what}; last: ${JSON.stringify(last?.seen ?? last)}`
      )
    await sleep(400)
  }
}

function expect(condition, message, seen) {
  if (!condition) throw new Error(seen === undefined ? message : `${message}; seen: ${JSON.stringify(seen)}`)
}

/**
 * The HTTP client of one app: `call` answers { status, body } whatever the status; `store`, `admin` and `sandbox`
 * throw on anything but 2xx, naming the request and the answer.
 */
function clients({ shopUrl, sandboxUrl, publishableKey }) {
  async function call(base, method, urlPath, { body, headers = {} } = {}) {
    const response = await fetch(`${base}${urlPath}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    })
    const text = await response.text()
    let parsed = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, body: parsed }
  }
  const ok = async (label, answer) => {
    const { status, body } = await answer
    if (status < 200 || status >= 300) throw new Error(`${label}: ${status} ${JSON.stringify(body)?.slice(0, 600)}`)
    return body
  }
  let adminToken = null
  const auth = (token) => ({ authorization: `Bearer ${token ?? adminToken}` })
  return {
    call: (method, urlPath, options) => call(shopUrl, method, urlPath, options),
    store: (method, urlPath, body) =>
      ok(
        `${method} ${urlPath}`,
        call(shopUrl, method, urlPath, { body, headers: { "x-publishable-api-key": publishableKey } })
      ),
    admin: (method, urlPath, body) =>
      ok(`${method} ${urlPath}`, call(shopUrl, method, urlPath, { body, headers: auth() })),
    adminAnswer: (method, urlPath, body, token) => call(shopUrl, method, urlPath, { body, headers: auth(token) }),
    sandbox: (method, urlPath, body) =>
      ok(`sandbox ${method} ${urlPath}`, call(sandboxUrl, method, `/__sandbox${urlPath}`, { body })),
    async login(email, password) {
      const { token } = await ok(
        `POST /auth/user/emailpass (${email})`,
        call(shopUrl, "POST", "/auth/user/emailpass", { body: { email, password } })
      )
      return token
    },
    useAdmin(token) {
      adminToken = token
    },
  }
}

/** The fields of an admin order read that show its REFPAY payment: sessions, payments, captures, refunds. */
const ORDER_FIELDS = [
  "+payment_status",
  "+fulfillment_status",
  "*items",
  "*fulfillments",
  "*payment_collections",
  "*payment_collections.payment_sessions",
  "*payment_collections.payments",
  "*payment_collections.payments.captures",
  "*payment_collections.payments.refunds",
].join(",")

const paymentsOf = (order) => (order.payment_collections ?? []).flatMap((c) => c.payments ?? [])
const capturesOf = (order) => paymentsOf(order).flatMap((p) => p.captures ?? [])

/**
 * The steps, in order; each gets the shared state `s` (filled by earlier steps). `options`: { shopUrl, sandboxUrl,
 * seed, password, owner, noRoleUser, webhookSecret, rbac }.
 */
function lifecycleSteps(options) {
  const c = clients({
    shopUrl: options.shopUrl,
    sandboxUrl: options.sandboxUrl,
    publishableKey: options.seed.publishable_key,
  })
  const regionId = options.seed.region_id
  const adminOrder = async (orderId) => (await c.admin("GET", `/admin/orders/${orderId}?fields=${ORDER_FIELDS}`)).order
  const storeView = async (orderId) => (await c.store("GET", `/store/refpay/orders/${orderId}`)).refpay
  const platformPayment = (paymentId) => c.sandbox("GET", `/payments/${paymentId}`)
  const deliveries = async (paymentId) =>
    (await c.admin("GET", `/admin/refpay/webhooks/deliveries?payment_id=${paymentId}&limit=50`)).deliveries

  async function variantId(handle) {
    const query = new URLSearchParams({ region_id: regionId, handle, fields: "id,*variants" })
    const { products } = await c.store("GET", `/store/products?${query}`)
    expect(products?.[0]?.variants?.[0]?.id, `no variant for product ${handle}`, products)
    return products[0].variants[0].id
  }

  /** Cart, shipping, a REFPAY session, completion: through the store API as a storefront does. */
  async function placeOrder(quantity = 1) {
    const { cart } = await c.store("POST", "/store/carts", {
      region_id: regionId,
      email: "joao.pereira@example.com",
      items: [{ variant_id: await variantId("azulejo"), quantity }],
      shipping_address: ADDRESS,
      billing_address: ADDRESS,
    })
    const { shipping_options } = await c.store("GET", `/store/shipping-options?cart_id=${cart.id}`)
    await c.store("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0].id })
    const { payment_collection } = await c.store("POST", "/store/payment-collections", { cart_id: cart.id })
    await c.store("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
      provider_id: "pp_refpay_refpay",
    })
    const completion = await c.store("POST", `/store/carts/${cart.id}/complete`)
    expect(completion.type === "order", "the cart was not completed", completion.error ?? completion)
    return completion.order
  }

  /** The store's view once it shows a waiting reference other than `previous` (a renewal or a re-issue). */
  const newReference = (orderId, previous) => async () => {
    const view = await storeView(orderId)
    const ok = view?.reference && view.reference !== previous.reference && view.status === "awaiting" && !view.expired
    return ok ? view : { ok: false, seen: view }
  }

  const s = {}
  const steps = [
    [
      "the app answers /health and the plugin's store route (404 for an unknown order)",
      async () => {
        expect((await c.call("GET", "/health")).status === 200, "/health did not answer 200")
        const unknown = await c.call("GET", "/store/refpay/orders/order_01UNKNOWN", {
          headers: { "x-publishable-api-key": options.seed.publishable_key },
        })
        expect(unknown.status === 404, "GET /store/refpay/orders/order_01UNKNOWN did not answer 404", unknown)
        c.useAdmin(await c.login(options.owner, options.password))
      },
    ],
    [
      "checkout: the store route shows the entity and reference of a waiting payment for the order's total",
      async () => {
        const order = await placeOrder(1)
        s.paid = { orderId: order.id, totalCents: Math.round(Number(order.total) * 100) }
        const view = await storeView(order.id)
        expect(/^\d{5}$/.test(view?.entity ?? ""), "no 5-digit entity in GET /store/refpay/orders/:id", view)
        expect(/^\d{9}$/.test(view?.reference ?? ""), "no 9-digit reference", view)
        expect(view.status === "awaiting" && view.amount_cents === s.paid.totalCents, "not awaiting the total", view)
        const platform = await platformPayment(view.payment_id)
        expect(platform.status === "WAITING" && Number(platform.amount) === s.paid.totalCents, "platform", platform)
        s.paid.view = view
      },
    ],
    [
      "fulfilment refused while the payment is waiting (POST /admin/orders/:id/fulfillments)",
      async () => {
        const order = await adminOrder(s.paid.orderId)
        const answer = await c.adminAnswer("POST", `/admin/orders/${order.id}/fulfillments`, {
          items: order.items.map((item) => ({ id: item.id, quantity: Number(item.quantity) })),
        })
        expect(answer.status >= 400 && answer.status < 500, "the fulfilment was not refused", answer)
        expect(/REFPAY/.test(JSON.stringify(answer.body)), "refused, but not by the REFPAY guard", answer)
        const after = await adminOrder(order.id)
        expect((after.fulfillments ?? []).length === 0, "a fulfilment exists", after.fulfillments)
      },
    ],
    [
      "paid on the platform: its webhook through the plugin's route /hooks/refpay captures the order",
      async () => {
        await c.sandbox("POST", `/payments/${s.paid.view.payment_id}/pay`)
        await waitFor(
          async () => {
            const order = await adminOrder(s.paid.orderId)
            return order.payment_status === "captured" ? order : { ok: false, seen: order.payment_status }
          },
          30_000,
          "payment_status captured"
        )
        const view = await storeView(s.paid.orderId)
        expect(view.status === "paid" && view.do_not_ship === false, "the store view is not paid", view)
        // The reference's creation has its own event (PENDING_TRANSACTIONS), delivered before or after: the payment's
        // is the one looked for.
        await waitFor(
          async () =>
            (await deliveries(s.paid.view.payment_id)).find(
              (d) => d.route === "refpay" && d.status === "processed" && d.event_type === "APPROVED_TRANSACTIONS"
            ),
          15_000,
          "a processed APPROVED_TRANSACTIONS delivery through /hooks/refpay"
        )
      },
    ],
    [
      "webhook through Medusa's route /hooks/payment/refpay_refpay (secret header) reaches the plugin",
      async () => {
        // The platform's event for the payment (the sandbox sent its own to /hooks/refpay), under a new event id.
        const platform = await platformPayment(s.paid.view.payment_id)
        const event = {
          event_id: `evt_compat_${Date.now()}`,
          event_type: "APPROVED_TRANSACTIONS",
          payment_id: platform.payment_id,
          order_id: platform.order_id,
          status: "APPROVED",
          amount: s.paid.totalCents,
          occurred_at: new Date().toISOString(),
        }
        const answer = await c.call("POST", "/hooks/payment/refpay_refpay", {
          body: event,
          headers: { "x-refpay-webhook-secret": options.webhookSecret },
        })
        expect(answer.status === 200, "Medusa's webhook route did not answer 200", answer)
        // Medusa emits payment.webhook_received 5 s later; the plugin records the delivery when it handles it.
        const viaMedusa = await waitFor(
          async () => {
            const found = (await deliveries(s.paid.view.payment_id)).find((d) => d.route === "medusa")
            // Recorded as not_processed first, then as what its sync did.
            return found?.status === "processed" ? found : { ok: false, seen: found ?? null }
          },
          30_000,
          "the plugin's record of the delivery through Medusa's route, processed"
        )
        expect(viaMedusa.status === "processed", "the delivery was not processed", viaMedusa)
      },
    ],
    [
      "captured exactly once after both webhook routes",
      async () => {
        const order = await adminOrder(s.paid.orderId)
        const captures = capturesOf(order)
        expect(captures.length === 1, `${captures.length} captures`, captures)
        expect(
          Math.round(Number(captures[0].amount) * 100) === s.paid.totalCents,
          "captured another amount",
          captures[0]
        )
        expect((await platformPayment(s.paid.view.payment_id)).status === "APPROVED", "not APPROVED on the platform")
        s.paid.paymentId = paymentsOf(order)[0].id
      },
    ],
    [
      `partial refund (${PARTIAL_REFUND_EUR} EUR) through Medusa's POST /admin/payments/:id/refund reaches the platform`,
      async () => {
        await c.admin("POST", `/admin/payments/${s.paid.paymentId}/refund`, { amount: PARTIAL_REFUND_EUR })
        const platform = await platformPayment(s.paid.view.payment_id)
        expect(
          Number(platform.refunded_amount) === PARTIAL_REFUND_EUR * 100,
          "refunded_amount on the platform",
          platform
        )
        const order = await adminOrder(s.paid.orderId)
        const refunds = paymentsOf(order).flatMap((p) => p.refunds ?? [])
        expect(refunds.length === 1 && Number(refunds[0].amount) === PARTIAL_REFUND_EUR, "Medusa's refunds", refunds)
        expect(order.payment_status === "partially_refunded", "payment_status", order.payment_status)
        // The reliance "refund-before-provider" (src/medusa-compat/refund-before-provider.ts): Medusa committed its
        // Refund before calling the provider and passed its id as the idempotency key, which the platform's refund
        // carries.
        const key = refundKeyFor(s.paid.view.payment_id, refunds[0].id)
        const made = (platform.records ?? []).filter((r) => String(r.type).toUpperCase() === "REFUND")
        expect(
          made.length === 1 && made[0].idempotency_key === key,
          "refund-before-provider: the platform's refund is not keyed by Medusa's Refund id",
          { made, key }
        )
      },
    ],
    [
      "an order edit of an unpaid order cancels its reference and issues one for the new total",
      async () => {
        const order = await placeOrder(2)
        const before = await storeView(order.id)
        const placed = await adminOrder(order.id)
        await c.admin("POST", "/admin/order-edits", { order_id: order.id })
        await c.admin("POST", `/admin/order-edits/${order.id}/items/item/${placed.items[0].id}`, { quantity: 1 })
        await c.admin("POST", `/admin/order-edits/${order.id}/request`, {})
        await c.admin("POST", `/admin/order-edits/${order.id}/confirm`, {})
        const edited = await adminOrder(order.id)
        const newTotal = Math.round(Number(edited.total) * 100)
        expect(newTotal < before.amount_cents, "the edit did not lower the total", { newTotal, before })
        const after = await waitFor(newReference(order.id, before), 30_000, "a new reference after the edit")
        expect(after.amount_cents === newTotal, "the new reference is not for the new total", { newTotal, after })
        expect(Number((await platformPayment(after.payment_id)).amount) === newTotal, "platform amount")
        const old = await platformPayment(before.payment_id)
        expect(old.status === "CANCELLED", "the old reference is still payable", old)
      },
    ],
    [
      "an expired reference is renewed (platform clock +8 days): a new reference for the same order",
      async () => {
        const order = await placeOrder(1)
        const before = await storeView(order.id)
        await c.sandbox("POST", "/clock", { advance_days: 8 })
        const after = await waitFor(newReference(order.id, before), 60_000, "a renewed reference")
        expect(after.amount_cents === before.amount_cents, "renewed for another amount", { before, after })
        const old = await platformPayment(before.payment_id)
        expect(["EXPIRED", "CANCELLED"].includes(old.status), "the old reference is not expired", old)
        s.renewed = { orderId: order.id }
      },
    ],
    [
      "the REFPAY admin routes answer (orders/:id, settings, attention) and refuse an anonymous caller",
      async () => {
        const { refpay } = await c.admin("GET", `/admin/refpay/orders/${s.paid.orderId}`)
        expect(refpay?.reference === s.paid.view.reference, "GET /admin/refpay/orders/:id", refpay)
        const settings = await c.admin("GET", "/admin/refpay/settings")
        expect(settings && typeof settings === "object", "GET /admin/refpay/settings", settings)
        await c.admin("GET", "/admin/refpay/attention")
        const anonymous = await c.call("GET", "/admin/refpay/settings")
        expect(anonymous.status === 401, "an anonymous GET /admin/refpay/settings was not refused", anonymous)
      },
    ],
    [
      "RBAC (MEDUSA_FF_RBAC): the REFPAY routes' policies refuse a user without a role",
      async () => {
        if (!options.rbac) throw new NotApplicable(options.rbacNote ?? "no RBAC in this Medusa version")
        const token = await c.login(options.noRoleUser, options.password)
        const read = await c.adminAnswer("GET", "/admin/refpay/settings", undefined, token)
        const sync = await c.adminAnswer(
          "POST",
          `/admin/refpay/orders/${s.renewed?.orderId ?? s.paid.orderId}/sync`,
          {},
          token
        )
        expect(read.status === 403 && sync.status === 403, "a user with no role was not refused", { read, sync })
        const owner = await c.adminAnswer("GET", "/admin/refpay/settings")
        expect(owner.status === 200, "the super admin was refused", owner)
      },
    ],
    // The plugin's reliances on Medusa beyond its public API (src/medusa-compat/contracts.ts), checked inside this app
    // by the seed's `medusa exec`: one step each, so a change upstream is named in the row.
    ...(options.reliances ?? [{ name: "(not checked)", ok: false, detail: "the seed wrote no reliance results" }]).map(
      (reliance) => [
        `Medusa does what the plugin relies on: ${reliance.name}`,
        async () => expect(reliance.ok, reliance.detail ?? "failed"),
      ]
    ),
  ]
  return steps
}

/** Runs the steps one after another; returns one result a step: { name, status: passed|failed|n/a, seconds, message }. */
async function runLifecycle(options, log = () => undefined) {
  const results = []
  for (const [name, run] of lifecycleSteps(options)) {
    const started = Date.now()
    let status = "passed"
    let message = null
    try {
      await run()
    } catch (error) {
      status = error instanceof NotApplicable ? "n/a" : "failed"
      message = error.message
    }
    const seconds = Math.round((Date.now() - started) / 100) / 10
    results.push({ name, status, seconds, message })
    log(
      `  ${status === "passed" ? "✓" : status === "n/a" ? "-" : "✕"} ${name} (${seconds} s)${message ? `\n      ${message}` : ""}`
    )
  }
  return results
}

module.exports = { runLifecycle }
