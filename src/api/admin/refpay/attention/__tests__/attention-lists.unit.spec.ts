import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { REFPAY_MODULE } from "../../../../../modules/refpay"
import { ATTENTION_KINDS } from "../../../../../rules/attention-kinds"
import { countAttention, listAttention } from "../attention-lists"
import { platformRefundedCents } from "../../payment-rows"

/**
 * A container whose PostgreSQL answers every count with `matching` and every page with as many ids as asked for
 * (up to `matching`), recording each statement and its bindings; the query graph answers the sessions asked for.
 */
function fakeShop(matching: number) {
  const statements: { sql: string; bindings: unknown[] }[] = []
  const graphed: string[][] = []
  const pg = {
    raw: async (sql: string, bindings: unknown[] = []) => {
      statements.push({ sql, bindings })
      if (/select count\(\*\)/.test(sql)) return { rows: [{ count: matching }] }
      const [limit, offset] = bindings.slice(-2) as [number, number]
      const n = Math.max(0, Math.min(limit, matching - offset))
      return { rows: Array.from({ length: n }, (_, i) => ({ id: `payses_${offset + i}` })) }
    },
  }
  const checks = {
    listAndCountRefpayPaymentChecks: async () => [[], 7],
    listRefpayPaymentChecks: async () => [],
  }
  const query = {
    graph: async ({ filters }: { filters: { id: string[] } }) => {
      graphed.push(filters.id)
      return {
        data: filters.id.map((id) => ({
          id,
          status: "pending_authorization",
          provider_id: "pp_refpay_refpay",
          data: { refpay: { amount_cents: 2498 } },
        })),
      }
    },
  }
  const services: Record<string, unknown> = {
    [ContainerRegistrationKeys.PG_CONNECTION]: pg,
    [REFPAY_MODULE]: checks,
    [ContainerRegistrationKeys.QUERY]: query,
  }
  const container = { resolve: (key: string) => services[key] } as unknown as MedusaContainer
  return { container, statements, graphed }
}

describe("attention counts and lists", () => {
  it("counts every kind with one COUNT(*) each, loading no rows and binding no list of ids, however many payments match", async () => {
    const shop = fakeShop(100_000)
    const counts = await countAttention(shop.container, new Date("2026-11-25T10:00:00Z"))
    expect(counts).toEqual({
      expiring: 100_000,
      paid_after_cancellation: 100_000,
      refund_mismatch: 100_000,
      amount_mismatch: 7,
      unknown_payment: 7,
      platform_error: 7,
      paid_after_session_deleted: 7,
    })
    expect(Object.keys(counts)).toEqual([...ATTENTION_KINDS])
    expect(shop.statements).toHaveLength(3)
    for (const statement of shop.statements) {
      // "expiring" from the poll job's check records (indexed), the others from the sessions.
      expect(statement.sql).toMatch(
        /^select count\(\*\)::int as count from (payment_session ps|refpay_payment_check c)/
      )
      expect(statement.bindings.length).toBeLessThanOrEqual(6)
    }
    expect(shop.graphed).toEqual([])
  })

  it.each(["expiring", "paid_after_cancellation", "refund_mismatch"] as const)(
    "pages the %s list in SQL (LIMIT/OFFSET in a stable order) and loads only that page's payments",
    async (kind) => {
      const shop = fakeShop(100_000)
      const page = await listAttention(shop.container, kind, { limit: 20, offset: 99_990 }, [])
      expect(page).toMatchObject({ kind, count: 100_000, limit: 20, offset: 99_990 })
      expect(page.payments.map((p) => p.payment_session_id)).toEqual(
        Array.from({ length: 10 }, (_, i) => `payses_${99_990 + i}`)
      )
      const paged = shop.statements.find((s) => /limit \? offset \?$/.test(s.sql))!
      expect(paged.sql).toMatch(/order by .*(ps\.id|c\.session_id) (asc|desc) limit/)
      expect(paged.bindings.slice(-2)).toEqual([20, 99_990])
      expect(shop.statements.every((s) => s.bindings.length <= 8)).toBe(true)
      expect(shop.graphed).toEqual([page.payments.map((p) => p.payment_session_id)])
    }
  )
})

describe("the platform's refunded total as last read", () => {
  it.each([
    [{ refunded_cents: 500 }, { refunded_cents: 0 }, 500],
    [{ refunded_cents: 0 }, { refunded_cents: 1200 }, 1200],
    [{ refunded_cents: 300 }, undefined, 300],
    [{}, { refunded_cents: "900" }, null],
    [undefined, null, null],
  ])("session %j and payment %j: %p", (session, payment, expected) => {
    expect(platformRefundedCents(session, payment)).toBe(expected)
  })
})
