import type { z } from "zod"
import { createApiError, createResponseError } from "./errors"
import type { HttpResponse } from "./http"
import type { Redactor } from "./redact"

/**
 * Turns an HTTP answer into either the parsed success body or a RefpayError: a non-2xx answer becomes the error
 * class for its status with the platform's body, a 2xx body that breaks its schema becomes a RefpayResponseError.
 * Any 2xx is success (the sandbox answers 201 to a creation, a real platform may answer 200).
 */
export function readResponse<S extends z.ZodType>(
  res: HttpResponse,
  schema: S,
  context: { operation: string; requestId?: string; redactor: Redactor }
): z.output<S> {
  if (res.status < 200 || res.status > 299) {
    throw createApiError({
      operation: context.operation,
      status: res.status,
      body: res.body,
      requestId: requestIdOf(res, context),
      attempts: res.attempts,
      redactor: context.redactor,
    })
  }
  // Nothing is redacted, summarized or stringified unless the body breaks its schema.
  const parsed = schema.safeParse(res.body)
  if (!parsed.success) {
    throw createResponseError({
      operation: context.operation,
      status: res.status,
      body: res.body,
      // Path and rule only: zod 4 issues do not repeat the offending value, and the body is redacted separately.
      issues: parsed.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`),
      requestId: requestIdOf(res, context),
      redactor: context.redactor,
    })
  }
  return parsed.data
}

/** The request_id we sent, or else the platform's x-request-id header. */
function requestIdOf(res: HttpResponse, context: { requestId?: string }): string | undefined {
  const header = res.headers["x-request-id"]
  return context.requestId ?? (Array.isArray(header) ? header[0] : header)
}
