import { DeadlockException, UniqueConstraintViolationException } from "@medusajs/framework/mikro-orm/core"
import { MedusaError } from "@medusajs/framework/utils"

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
