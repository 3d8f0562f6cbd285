import {
  ConnectionException,
  NotNullConstraintViolationException,
  UniqueConstraintViolationException,
} from "@medusajs/framework/mikro-orm/core"
import { MedusaError } from "@medusajs/framework/utils"
import RefpayModuleService from "../service"
import { asMedusaDataLayerSurfaces, isDeadlock, isUniqueViolation } from "../../../medusa-compat/database-errors"
import { refreshReferenceCopies } from "../../../medusa-compat/medusa-tables/reference-copies"

/** What PostgreSQL (through the pg driver) reports, with the fields MikroORM copies onto its exception. */
function pgError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message ?? "pg error")), fields)
}

const duplicate = () =>
  pgError({
    message: 'duplicate key value violates unique constraint "IDX_refpay_payment_check_session_id_unique"',
    code: "23505",
    detail: "Key (session_id)=(payses_1) already exists.",
    table: "refpay_payment_check",
  })

/** The error a module service's write rejects with: MikroORM's exception, passed through Medusa's data layer. */
async function asMedusaSurfacesIt(driverError: Error): Promise<unknown> {
  const error = await asMedusaDataLayerSurfaces(driverError)
  if (error === undefined) throw new Error("expected the write to fail")
  return error
}

describe("a write refused for a duplicate unique key", () => {
  it("is recognised as Medusa's data layer surfaces it: a MedusaError naming the key", async () => {
    const error = await asMedusaSurfacesIt(new UniqueConstraintViolationException(duplicate()))
    expect(error).toBeInstanceOf(MedusaError)
    expect((error as Error).message).toBe("Refpay payment check with session_id: payses_1, already exists.")
    expect(isUniqueViolation(error)).toBe(true)
  })

  it("is recognised as MikroORM's exception or PostgreSQL's code 23505 when nothing maps it", async () => {
    const { detail: _omitted, ...withoutDetail } = duplicate() as Error & { detail?: string }
    const unmapped = await asMedusaSurfacesIt(new UniqueConstraintViolationException(pgError(withoutDetail)))
    expect(unmapped).toBeInstanceOf(UniqueConstraintViolationException)
    expect(isUniqueViolation(unmapped)).toBe(true)
    expect(isUniqueViolation(duplicate())).toBe(true)
  })

  it("is not any other database failure", async () => {
    const nullColumn = await asMedusaSurfacesIt(
      new NotNullConstraintViolationException(
        pgError({
          code: "23502",
          column: "provider_id",
          table: "refpay_payment_check",
          message: "null value in column",
        })
      )
    )
    expect(nullColumn).toBeInstanceOf(MedusaError)
    expect(isUniqueViolation(nullColumn)).toBe(false)
    const lost = await asMedusaSurfacesIt(
      new ConnectionException(pgError({ code: "57P01", message: "terminating connection" }))
    )
    expect(isUniqueViolation(lost)).toBe(false)
    expect(isUniqueViolation(new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session already exists."))).toBe(
      false
    )
    expect(isUniqueViolation(new Error("Connection terminated unexpectedly"))).toBe(false)
    expect(isUniqueViolation(undefined)).toBe(false)
  })
})

describe("checking new sessions", () => {
  const row = {
    session_id: "payses_1",
    provider_id: "pp_refpay_refpay",
    next_check_at: new Date(0),
    check_until: new Date(1),
  }

  /** The service's own addPaymentChecks over a fake data layer: nothing known yet, the insert fails with `error`. */
  async function watchWhileInsertFails(error: unknown): Promise<string[]> {
    const service = {
      listRefpayPaymentChecks: async () => [],
      createRefpayPaymentChecks: async () => {
        throw error
      },
    }
    return await RefpayModuleService.prototype.addPaymentChecks.call(service as unknown as RefpayModuleService, [row])
  }

  it("lets a concurrent poll run that inserted the same session first win", async () => {
    await expect(
      watchWhileInsertFails(await asMedusaSurfacesIt(new UniqueConstraintViolationException(duplicate())))
    ).resolves.toEqual([])
  })

  it("surfaces any other database failure", async () => {
    const lost = await asMedusaSurfacesIt(
      new ConnectionException(pgError({ code: "57P01", message: "terminating connection" }))
    )
    await expect(watchWhileInsertFails(lost)).rejects.toBe(lost)
  })
})

describe("refreshing the owner's-numbers copies of a payment collection's checks", () => {
  const deadlock = () => Object.assign(new Error("deadlock detected"), { code: "40P01" })

  /** The refresh over a connection that fails with each of `failures` in turn, then succeeds. */
  async function refreshWhile(failures: unknown[]): Promise<number> {
    let calls = 0
    const execute = async () => {
      calls++
      const failure = failures.shift()
      if (failure) throw failure
      return []
    }
    const container = { resolve: () => ({ raw: execute }) }
    await refreshReferenceCopies(container as never, ["payses_1"])
    return calls
  }

  it("runs again when PostgreSQL broke a deadlock with another refresh by failing it", async () => {
    expect(isDeadlock(deadlock())).toBe(true)
    expect(isDeadlock(new ConnectionException(pgError({ code: "57P01", message: "terminating" })))).toBe(false)
    await expect(refreshWhile([deadlock()])).resolves.toBe(2)
  })

  it("gives up after three deadlocks, and never runs again after another failure", async () => {
    await expect(refreshWhile([deadlock(), deadlock(), deadlock()])).rejects.toMatchObject({ code: "40P01" })
    const lost = new Error("terminating connection")
    await expect(refreshWhile([lost])).rejects.toBe(lost)
  })
})
