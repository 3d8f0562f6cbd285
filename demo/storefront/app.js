// The demo storefront: one page, no framework, no build step. It talks to Medusa's store API with the shop's
// publishable key (from /config.json, served by the demo's own little server), and to the REFPAY sandbox's
// controls through that server's /sandbox/* proxy. The thank-you page's payment box and the payment-link page
// (/payment-collection/<id>, where Medusa's admin "Copy payment link" points) are medusa-payment-refpay/storefront's
// components as the package ships them, loaded from /kit.bundle.js as `RefpayKit`.
"use strict"

/* global RefpayKit */

const PROVIDER_ID = "pp_refpay_refpay"

const euros = new Intl.NumberFormat("pt-PT", { style: "currency", currency: "EUR" })

const $ = (id) => document.getElementById(id)
let config = null
let selected = null
/** Unmounts the kit's payment box (and stops its polling) when the shopper leaves the thank-you page. */
let unmountPayment = null

/** A Medusa store API call with the publishable key; throws with Medusa's message on an HTTP error. */
async function store(path, { method = "GET", body } = {}) {
  const response = await fetch(`${config.shop_url}${path}`, {
    method,
    headers: {
      "x-publishable-api-key": config.publishable_key,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await response.text()
  let data = null
  try {
    data = text ? JSON.parse(text) : null
  } catch {
    data = null
  }
  if (!response.ok) {
    const error = new Error(data?.message || `${method} ${path}: HTTP ${response.status}`)
    error.status = response.status
    throw error
  }
  return data
}

function show(view) {
  $("shop-view").hidden = view !== "shop"
  $("order-view").hidden = view !== "order"
  $("payment-collection-view").hidden = view !== "payment-collection"
}

function setText(id, text) {
  $(id).textContent = text
}

function showError(id, message) {
  const element = $(id)
  element.textContent = message || ""
  element.hidden = !message
}

// ---------------------------------------------------------------- products and checkout

async function loadProducts() {
  const query = new URLSearchParams({
    region_id: config.region_id,
    fields: "id,title,description,handle,*variants.calculated_price",
    limit: "20",
  })
  const { products } = await store(`/store/products?${query}`)
  const list = $("products")
  list.replaceChildren()
  for (const product of products) {
    const variant = product.variants?.[0]
    const price = variant?.calculated_price?.calculated_amount
    const item = document.createElement("li")
    item.className = "product"
    item.setAttribute("data-testid", "product")
    item.setAttribute("aria-selected", "false")
    const title = document.createElement("h3")
    title.textContent = product.title
    const description = document.createElement("p")
    description.textContent = product.description || ""
    const priceLine = document.createElement("span")
    priceLine.className = "price"
    priceLine.textContent = typeof price === "number" ? euros.format(price) : "—"
    const choose = document.createElement("button")
    choose.type = "button"
    choose.className = "secondary"
    choose.textContent = "Escolher"
    choose.setAttribute("data-testid", `choose-${product.handle}`)
    choose.addEventListener("click", () => selectProduct(item, product, variant, price))
    item.append(title, description, priceLine, choose)
    list.append(item)
  }
}

function selectProduct(item, product, variant, price) {
  for (const other of document.querySelectorAll(".product")) other.setAttribute("aria-selected", "false")
  item.setAttribute("aria-selected", "true")
  selected = { product, variant }
  setText("selected-product", `${product.title} — ${typeof price === "number" ? euros.format(price) : ""} (+ envio)`)
  $("place-order").disabled = false
  $("checkout").scrollIntoView({ behavior: "smooth", block: "start" })
}

function addressFromForm(form) {
  const value = (name) => form.elements.namedItem(name).value.trim()
  return {
    first_name: value("first_name"),
    last_name: value("last_name"),
    address_1: value("address_1"),
    address_2: value("address_2"),
    postal_code: value("postal_code"),
    city: value("city"),
    province: value("province"),
    phone: value("phone"),
    country_code: "pt",
  }
}

/** Cart -> shipping -> payment collection -> REFPAY session -> complete, as any Medusa storefront does. */
async function placeOrder(event) {
  event.preventDefault()
  const form = event.currentTarget
  showError("checkout-error", "")
  if (!selected) return showError("checkout-error", "Escolha um produto.")
  if (!form.reportValidity()) return
  const button = $("place-order")
  button.disabled = true
  const progress = (text) => setText("checkout-progress", text)
  try {
    const address = addressFromForm(form)
    progress("A criar o carrinho…")
    const { cart } = await store("/store/carts", {
      method: "POST",
      body: {
        region_id: config.region_id,
        email: form.elements.namedItem("email").value.trim(),
        items: [{ variant_id: selected.variant.id, quantity: 1 }],
        shipping_address: address,
        billing_address: address,
      },
    })
    progress("A escolher o envio…")
    const { shipping_options: options } = await store(`/store/shipping-options?cart_id=${encodeURIComponent(cart.id)}`)
    if (!options?.length) throw new Error("Não há opções de envio para esta morada.")
    await store(`/store/carts/${cart.id}/shipping-methods`, { method: "POST", body: { option_id: options[0].id } })
    progress("A preparar o pagamento REFPAY…")
    const { payment_collection: collection } = await store("/store/payment-collections", {
      method: "POST",
      body: { cart_id: cart.id },
    })
    await store(`/store/payment-collections/${collection.id}/payment-sessions`, {
      method: "POST",
      body: { provider_id: PROVIDER_ID },
    })
    progress("A finalizar a encomenda…")
    const completion = await store(`/store/carts/${cart.id}/complete`, { method: "POST" })
    if (completion.type !== "order") {
      // Medusa answers 200 with the cart when the payment step refuses the order.
      throw new Error(completion.error?.message || "A encomenda não foi criada.")
    }
    const order = completion.order
    sessionStorage.setItem(
      `order:${order.id}`,
      JSON.stringify({ display_id: order.display_id, email: order.email, total: order.total })
    )
    progress("")
    history.pushState({}, "", `/order/${order.id}`)
    await showOrder(order.id)
  } catch (error) {
    progress("")
    showError("checkout-error", error.message)
  } finally {
    button.disabled = !selected
  }
}

// ---------------------------------------------------------------- thank-you page

function renderSummary(orderId) {
  let summary = null
  try {
    summary = JSON.parse(sessionStorage.getItem(`order:${orderId}`) || "null")
  } catch {
    summary = null
  }
  setText(
    "order-summary",
    summary
      ? `Encomenda n.º ${summary.display_id} (${summary.email}). Total ${euros.format(summary.total)}.`
      : `Encomenda ${orderId}.`
  )
}

function closeOrder() {
  unmountPayment?.()
  unmountPayment = null
}

/** The sandbox button pays the order's current reference: its payment id comes from the store route the kit reads. */
async function enableSimulatePayment(orderId) {
  const button = $("simulate-payment")
  button.disabled = true
  button.dataset.paymentId = ""
  setText("simulate-progress", "")
  try {
    const { refpay } = await store(`/store/refpay/orders/${encodeURIComponent(orderId)}`)
    button.dataset.paymentId = refpay.payment_id || ""
    button.disabled = refpay.status !== "awaiting" || !refpay.payment_id
  } catch (error) {
    setText("simulate-progress", `Não há referência para pagar: ${error.message}`)
  }
}

async function showOrder(orderId) {
  closeOrder()
  show("order")
  renderSummary(orderId)
  unmountPayment = RefpayKit.mount($("refpay-payment"), orderId)
  await enableSimulatePayment(orderId)
}

async function simulatePayment() {
  const button = $("simulate-payment")
  const paymentId = button.dataset.paymentId
  if (!paymentId) return
  button.disabled = true
  setText("simulate-progress", "A enviar o pagamento para a sandbox…")
  try {
    const response = await fetch(`${config.sandbox_path}/payments/${encodeURIComponent(paymentId)}/pay`, {
      method: "POST",
    })
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
    setText("simulate-progress", "Pagamento enviado. O estado acima passa a «Pago» quando a loja o confirmar.")
  } catch (error) {
    setText("simulate-progress", `A sandbox recusou: ${error.message}`)
    button.disabled = false
  }
}

// ---------------------------------------------------------------- the payment link

async function showPaymentCollection(id) {
  closeOrder()
  show("payment-collection")
  $("simulate-link-payment").dataset.collectionId = id
  setText("simulate-link-progress", "")
  unmountPayment = RefpayKit.mountPaymentCollection($("refpay-payment-collection"), id)
}

/** Pays the link's current reference in the sandbox (its payment id from the store route the component reads). */
async function simulateLinkPayment() {
  const id = $("simulate-link-payment").dataset.collectionId
  try {
    const { payment_collection } = await store(`/store/refpay/payment-collections/${encodeURIComponent(id)}`)
    const refpay = payment_collection.refpay
    if (!refpay || refpay.status !== "awaiting") throw new Error("peça primeiro a referência")
    const response = await fetch(`${config.sandbox_path}/payments/${encodeURIComponent(refpay.payment_id)}/pay`, {
      method: "POST",
    })
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
    setText("simulate-link-progress", "Pagamento enviado. O estado acima passa a «Pago» quando a loja o confirmar.")
  } catch (error) {
    setText("simulate-link-progress", `Não foi possível simular: ${error.message}`)
  }
}

// ---------------------------------------------------------------- routing

async function route() {
  const match = location.pathname.match(/^\/order\/([^/]+)$/)
  if (match) return showOrder(decodeURIComponent(match[1]))
  const link = location.pathname.match(/^\/payment-collection\/([^/]+)$/)
  if (link) return showPaymentCollection(decodeURIComponent(link[1]))
  closeOrder()
  show("shop")
  await loadProducts()
}

async function main() {
  try {
    config = await (await fetch("/config.json")).json()
  } catch (error) {
    showError("startup-error", `A configuração da loja não foi encontrada: ${error.message}`)
    return
  }
  $("checkout").addEventListener("submit", placeOrder)
  $("simulate-payment").addEventListener("click", simulatePayment)
  $("simulate-link-payment").addEventListener("click", () => void simulateLinkPayment())
  for (const back of [$("back-to-shop"), ...document.querySelectorAll(".back-to-shop")]) {
    back.addEventListener("click", (event) => {
      event.preventDefault()
      history.pushState({}, "", "/")
      void route()
    })
  }
  window.addEventListener("popstate", () => void route())
  try {
    await route()
  } catch (error) {
    showError("startup-error", `A loja não respondeu (${config.shop_url}): ${error.message}`)
  }
}

void main()
