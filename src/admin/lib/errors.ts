import type { FetchError } from "@medusajs/js-sdk"

/** What the admin shows of a failed call: the server's message, or the HTTP status when it sent none. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const status = (error as Partial<FetchError>).status
  return error.message || (status ? `HTTP ${status}` : error.name)
}

/** A 404 from the admin API (checked by shape: the js-sdk's FetchError carries the status). */
export function isNotFound(error: unknown): boolean {
  return (error as Partial<FetchError> | null)?.status === 404
}

/** A FetchError is an answer from the server; anything else (network down, bad JSON) is not. */
export function isServerAnswer(error: unknown): boolean {
  return typeof (error as Partial<FetchError> | null)?.status === "number"
}
