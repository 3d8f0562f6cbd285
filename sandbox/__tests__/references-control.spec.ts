import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { DEFAULT_ENTITY, startSandbox, type RunningSandbox } from "../src"
import { bearer, call, control, createPayment, startWithToken, STATUS, stopSandbox, t1Token } from "./support/client"

/**
 * Paying by entity and reference (/__sandbox/references/{entity}/{reference}/...): what a shop owner sees on the
 * order, where the payment_id controls need the platform's id, which nothing shows them.
 */
let sb: RunningSandbox
let token: string

beforeAll(async () => ({ sb, token } = await startWithToken()))
afterEach(() => sb.reset())
afterAll(() => stopSandbox(sb))

/** A new WAITING payment: its id, entity and reference. */
async function newPayment(): Promise<{ id: string; entity: string; reference: string }> {
  const res = await createPayment(sb, token)
  expect(res.status).toBe(201)
  return { id: res.body.payment_id, ...res.body.additional_data }
}

const at = (p: { entity: string; reference: string }, action = "") => `/references/${p.entity}/${p.reference}${action}`

describe("controls by entity and reference (/__sandbox/references/{entity}/{reference})", () => {
  it("pays the payment the reference was issued for, as /payments/{id}/pay does", async () => {
    const p = await newPayment()
    const paid = await control(sb, "POST", at(p, "/pay"))
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({
      payment_id: p.id,
      status: "APPROVED",
      additional_data: { entity: p.entity, reference: p.reference },
    })
    expect(paid.body.records.map((r: any) => r.type)).toEqual(["PAYMENT", "APPROVAL"])
    // The platform's own status read agrees; a second payment is refused as by id.
    const read = await call(sb.paymentsUrl, "GET", `${STATUS}${p.id}`, { headers: bearer(token) })
    expect(read.body.status).toBe("APPROVED")
    const again = await control(sb, "POST", at(p, "/pay"), { force: true })
    expect(again.status).toBe(409)
    expect(again.body.error_code).toBe("PAYMENT_ALREADY_APPROVED")
  })

  it("takes the reference as it is shown, in groups of three", async () => {
    const p = await newPayment()
    const shown = p.reference.replace(/(\d{3})(\d{3})(\d{3})/, "$1 $2 $3")
    const paid = await control(sb, "POST", `/references/${p.entity}/${encodeURIComponent(shown)}/pay`)
    expect(paid.status).toBe(200)
    expect(paid.body.status).toBe("APPROVED")
  })

  it("force: a cancelled or expired payment is paid late only when asked", async () => {
    const cancelled = await newPayment()
    expect((await control(sb, "POST", at(cancelled, "/cancel"))).body.status).toBe("CANCELLED")
    const refused = await control(sb, "POST", at(cancelled, "/pay"), {})
    expect(refused.status).toBe(409)
    expect(refused.body.error_code).toBe("PAYMENT_NOT_PAYABLE")
    const late = await control(sb, "POST", at(cancelled, "/pay"), { force: true })
    expect(late.status).toBe(200)
    expect(late.body).toMatchObject({
      status: "APPROVED",
      reason_message: "Approved after cancellation (late settlement)",
    })

    const expired = await newPayment()
    // Expired reports the configured expiredStatus (CANCELLED by default) with reason EXPIRED.
    expect((await control(sb, "POST", at(expired, "/expire"))).body.reason_code).toBe("EXPIRED")
    expect((await control(sb, "POST", at(expired, "/expire"))).body.error_code).toBe("PAYMENT_NOT_WAITING")
    expect((await control(sb, "POST", at(expired, "/pay"), { force: true })).body.status).toBe("APPROVED")
  })

  it("GET reads the payment (and expires it when overdue)", async () => {
    const p = await newPayment()
    const read = await control(sb, "GET", at(p))
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ payment_id: p.id, status: "WAITING" })
    await control(sb, "POST", "/clock", { advance_days: 30 })
    expect((await control(sb, "GET", at(p))).body.reason_code).toBe("EXPIRED")
  })

  it("404 with a clear body for a reference nobody was issued, and for a forgotten payment", async () => {
    const unknown = await control(sb, "POST", `/references/${DEFAULT_ENTITY}/012345678/pay`)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({
      error_code: "PAYMENT_NOT_FOUND",
      message: `No payment has entity ${DEFAULT_ENTITY} and reference 012345678`,
      details: [],
    })
    const p = await newPayment()
    await control(sb, "DELETE", `/payments/${p.id}`)
    for (const action of ["", "/pay", "/cancel", "/expire"]) {
      const res = await control(sb, action === "" ? "GET" : "POST", at(p, action))
      expect(res.status).toBe(404)
      expect(res.body.error_code).toBe("PAYMENT_NOT_FOUND")
    }
  })

  it("a wrong entity is a 404 that names the reference's entity", async () => {
    const p = await newPayment()
    const wrong = p.entity === "99999" ? "11111" : "99999"
    const res = await control(sb, "POST", `/references/${wrong}/${p.reference}/pay`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({
      error_code: "PAYMENT_NOT_FOUND",
      message: `No payment has entity ${wrong} and reference ${p.reference}`,
      details: [{ field: "entity", message: `reference ${p.reference} belongs to entity ${p.entity}` }],
    })
    expect((await control(sb, "GET", `/payments/${p.id}`)).body.status).toBe("WAITING")
  })

  it("finds a reference chosen with next-reference, under its own entity", async () => {
    await control(sb, "POST", "/next-reference", { entity: "54321", reference: "000000042" })
    const p = await newPayment()
    expect(p).toMatchObject({ entity: "54321", reference: "000000042" })
    expect((await control(sb, "POST", "/references/54321/000000042/pay")).body.payment_id).toBe(p.id)
  })

  it("refuses a malformed entity, reference and body, every problem at once, and changes nothing", async () => {
    const p = await newPayment()
    const res = await control(sb, "POST", "/references/1234/12345678x/pay", { force: "yes", amount: 1 })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error_code: "INVALID_REQUEST",
      message: "Invalid sandbox control request",
      details: [
        { field: "entity", message: "must be 5 digits" },
        { field: "reference", message: "must be 9 digits" },
        { field: "force", message: "must be a boolean" },
        { field: "amount", message: "is not allowed" },
      ],
    })
    const notObject = await control(sb, "POST", at(p, "/pay"), [true])
    expect(notObject.body.details).toEqual([{ field: "body", message: "must be a JSON object" }])
    expect((await control(sb, "POST", "/references/1234/123/cancel")).body.details).toEqual([
      { field: "entity", message: "must be 5 digits" },
      { field: "reference", message: "must be 9 digits" },
    ])
    expect((await control(sb, "GET", `/payments/${p.id}`)).body.status).toBe("WAITING")
    const wrongMethod = await control(sb, "GET", at(p, "/pay"))
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.allow).toBe("POST")
  })

  it("finds the payments a restarted sandbox loaded from its state file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-sandbox-references-"))
    const file = path.join(dir, "sandbox.json")
    try {
      const first = await startSandbox({ port: 0, stateFile: file, stateSaveDelayMs: 10 })
      const created = await createPayment(first, await t1Token(first))
      await first.close()
      const second = await startSandbox({ port: 0, stateFile: file })
      try {
        const { entity, reference } = created.body.additional_data
        const paid = await control(second, "POST", `/references/${entity}/${reference}/pay`)
        expect(paid.status).toBe(200)
        expect(paid.body.payment_id).toBe(created.body.payment_id)
      } finally {
        await second.close()
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
