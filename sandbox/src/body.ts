import type { IncomingMessage } from "node:http"

/** Request bodies above this get 413 (the spec shows no limit; 1 MiB is far above any valid request). */
export const BODY_LIMIT = 1024 * 1024

export const TOO_LARGE = Symbol("too-large")
export const ABORTED = Symbol("aborted")

const EMPTY = Buffer.alloc(0)

/** The whole body, or TOO_LARGE as soon as it passes the limit, or ABORTED if the client went away. */
export function readBody(
  req: IncomingMessage,
  limit = BODY_LIMIT
): Promise<Buffer | typeof TOO_LARGE | typeof ABORTED> {
  const declared = req.headers["content-length"]
  // Hot path for reads: a request without a length or chunked encoding has no body to wait for.
  if (declared === undefined && req.headers["transfer-encoding"] === undefined) return Promise.resolve(EMPTY)
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(TOO_LARGE)
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (value: Buffer | typeof TOO_LARGE | typeof ABORTED) => {
      if (settled) return
      settled = true
      resolve(value)
    }
    req.on("data", (chunk: Buffer) => {
      if (settled) return
      size += chunk.length
      if (size > limit) return settle(TOO_LARGE)
      chunks.push(chunk)
    })
    req.on("end", () =>
      settle(chunks.length === 0 ? EMPTY : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size))
    )
    req.on("error", () => settle(ABORTED))
    req.on("close", () => settle(ABORTED))
  })
}
