import { DeadlockException, UniqueConstraintViolationException } from "@medusajs/framework/mikro-orm/core"
import { DALUtils, MedusaError } from "@medusajs/framework/utils"
import { VERIFIED_ON, type MedusaReliance } from "./reliance"

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = "23505"

/**
 * Whether a write failed only because a row with the same unique key exists: another writer got there first. Medusa's
 * data layer (dbErrorMapper in @medusajs/utils) rethrows MikroORM's UniqueConstraintViolationException as a
 * MedusaError of type INVALID_DATA, "<Table> with <key>: <value>, already exists.", and passes the exception on as it
 * is only when PostgreSQL's detail does not name the key; that MedusaError carries no code, so its message is what
 * tells it apart from the mapper's other INVALID_DATA errors (a null in a required column).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof UniqueConstraintViolationException) return true
  if (typeof error !== "object" || error === null) return false
  if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return true
  return (
    MedusaError.isMedusaError(error) &&
    (error as MedusaError).type === MedusaError.Types.INVALID_DATA &&
    / already exists\.$/.test((error as MedusaError).message)
  )
}

/** PostgreSQL's deadlock_detected: it failed this statement to let another go on; running it again is safe. */
export function isDeadlock(error: unknown): boolean {
  return (
    error instanceof DeadlockException ||
    (typeof error === "object" && error !== null && (error as { code?: unknown }).code === "40P01")
  )
}

/** What a module service's write rejects with when the database refused it with `driverError` (undefined: no rejection). */
export async function asMedusaDataLayerSurfaces(driverError: Error): Promise<unknown> {
  const repository = new DALUtils.MikroOrmBaseRepository({
    manager: {
      transactional: async () => {
        throw driverError
      },
    },
  } as never)
  return repository
    .transaction(async () => undefined)
    .then(
      () => undefined,
      (error: unknown) => error
    )
}

export const databaseErrorsReliance: MedusaReliance = {
  name: "database-errors",
  behaviour:
    "Medusa's data layer surfaces a unique-key violation as MikroORM's exception or as a MedusaError INVALID_DATA " +
    "'<Table> with <key>: <value>, already exists.': the plugin takes either for 'another writer got there first'.",
  upstream: "packages/core/utils/src/dal/mikro-orm/db-error-mapper.ts (dbErrorMapper)",
  verified: VERIFIED_ON,
  usedBy: ["src/medusa-compat/database-errors.ts", "src/modules/refpay/service.ts"],
  async check() {
    const driverError = Object.assign(new Error("duplicate key value violates unique constraint"), {
      code: "23505",
      detail: "Key (session_id)=(payses_probe) already exists.",
      table: "refpay_payment_check",
    })
    const surfaced = await asMedusaDataLayerSurfaces(new UniqueConstraintViolationException(driverError))
    if (!isUniqueViolation(surfaced))
      throw new Error(`a unique violation now surfaces as ${String((surfaced as Error)?.message ?? surfaced)}`)
  },
}
