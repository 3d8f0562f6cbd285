import type { EntityManager } from "@medusajs/framework/mikro-orm/knex"
import { recordPaymentCheck, type CheckRecord, type PaymentCheck } from "../payment-checks"

/** The module's check table as recordPaymentCheck uses it: what it was asked, in order; one row, `chk_1`. */
function recordingStore(rowExists = true) {
  const calls: string[] = []
  const store = {
    async listRefpayPaymentChecks() {
      calls.push("list")
      return rowExists ? [{ id: "chk_1", failures: 2 }] : []
    },
    async createRefpayPaymentChecks(row: { failures: number }) {
      calls.push(`create failures=${row.failures}`)
      return row
    },
    async updateRefpayPaymentChecks() {
      calls.push("update through the generated service")
      return {}
    },
  }
  const manager = {
    getConnection: () => ({
      async execute(sql: string, params: unknown[]) {
        calls.push(`statement: ${sql.trim().split(/\s+/).slice(0, 2).join(" ")} id=${String(params.at(-1))}`)
        return rowExists ? [{ id: "chk_1" }] : []
      },
    }),
  } as unknown as EntityManager
  return { calls, store: store as unknown as Parameters<typeof recordPaymentCheck>[0], manager }
}

const record: CheckRecord = {
  session_id: "payses_1",
  provider_id: "pp_refpay_refpay",
  checked_at: new Date("2026-11-28T09:00:00Z"),
  outcome: "capture",
  failed: false,
  next_check_at: new Date("2026-11-28T10:00:00Z"),
  check_until: null,
  expires_at: null,
}

describe("recording a check of a session", () => {
  it("writes onto the check the caller has just read in one statement, without reading it again", async () => {
    const { calls, store, manager } = recordingStore()
    await recordPaymentCheck(store, manager, record, { id: "chk_1", failures: 2 } as PaymentCheck)
    expect(calls).toEqual(['statement: update "refpay_payment_check" id=chk_1'])
  })

  it("reads the check first when the caller has not, and creates it when the session has none", async () => {
    const existing = recordingStore()
    await recordPaymentCheck(existing.store, existing.manager, record)
    expect(existing.calls).toEqual(["list", 'statement: update "refpay_payment_check" id=chk_1'])
    const none = recordingStore(false)
    await recordPaymentCheck(none.store, none.manager, { ...record, failed: true }, null)
    expect(none.calls).toEqual(["create failures=1"])
  })
})
