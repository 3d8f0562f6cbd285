"use strict"
// The demo's Mailbox page: the e-mails the shop sent (kept by the demo's notification provider, rendered with the
// plugin's renderRefpayEmail), newest first, and buttons that move the sandbox clock so a person trying the demo
// sees the reminder and a renewal without waiting a week.

let config = null
const $ = (id) => document.getElementById(id)

async function shop(path, init = {}) {
  const response = await fetch(`${config.shop_url}${path}`, {
    ...init,
    headers: {
      "x-publishable-api-key": config.publishable_key,
      ...(init.body ? { "content-type": "application/json" } : {}),
    },
  })
  const body = await response.json().catch(() => ({}))
  if (!response.ok) throw new Error(body.message || `HTTP ${response.status}`)
  return body
}

function renderEmail(email) {
  const item = document.createElement("article")
  item.className = "mail"
  item.dataset.testid = "mail"
  item.dataset.template = email.template
  const header = document.createElement("header")
  const to = document.createElement("span")
  to.textContent = `Para: ${email.to}`
  const at = document.createElement("time")
  at.dateTime = email.sent_at
  at.textContent = new Date(email.sent_at).toLocaleString("pt-PT", { timeZone: "Europe/Lisbon" })
  header.append(to, at)
  const subject = document.createElement("h2")
  subject.textContent = email.subject
  const body = document.createElement("iframe")
  body.title = email.subject
  body.sandbox = ""
  body.srcdoc = email.html
  const text = document.createElement("pre")
  text.hidden = true
  text.dataset.testid = "mail-text"
  text.textContent = email.text
  item.append(header, subject, body, text)
  return item
}

async function refresh() {
  try {
    const { emails } = await shop("/store/demo/mailbox")
    const box = $("mailbox")
    box.replaceChildren(
      ...(emails.length
        ? emails.map(renderEmail)
        : [
            Object.assign(document.createElement("p"), {
              textContent: "Ainda não há e-mails. Faça uma encomenda na loja.",
            }),
          ])
    )
    $("mailbox-error").hidden = true
  } catch (error) {
    $("mailbox-error").textContent = `A loja não respondeu: ${error.message}`
    $("mailbox-error").hidden = false
  }
}

async function advance(days) {
  $("time-travel-status").textContent = "A avançar o relógio…"
  try {
    const answer = await shop("/store/demo/time-travel", { method: "POST", body: JSON.stringify({ days }) })
    $("time-travel-status").textContent =
      `Agora é ${new Date(answer.now).toLocaleString("pt-PT", { timeZone: "Europe/Lisbon" })} na sandbox.`
  } catch (error) {
    $("time-travel-status").textContent = `Não foi possível: ${error.message}`
  }
  setTimeout(refresh, 1500)
}

async function main() {
  config = await (await fetch("/config.json")).json()
  for (const button of document.querySelectorAll("[data-days]"))
    button.addEventListener("click", () => advance(Number(button.dataset.days)))
  await refresh()
  setInterval(refresh, 3000)
}

void main()
