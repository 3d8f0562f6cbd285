import { MedusaError } from "@medusajs/framework/utils"

/**
 * Medusa 2.21.2 hands the caller an error raised in a workflow run as a step (`runAsStep`) as a plain object
 * (message, type, `__isMedusaError`): made an Error again, of Medusa's type when it was one, so callers get an Error.
 */
export function asError(error: unknown): Error {
  if (error instanceof Error) return error
  const plain = (error ?? {}) as { message?: string; type?: string; __isMedusaError?: boolean }
  const message = plain.message ?? String(error)
  return plain.__isMedusaError
    ? new MedusaError(plain.type ?? MedusaError.Types.UNEXPECTED_STATE, message)
    : new Error(message)
}
