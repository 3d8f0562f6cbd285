import { randomUUID } from "node:crypto"
import type { z } from "zod"
import { joinUrl, type RefpayLogger, type RefpayPaths } from "./config"
import { httpTarget, type HttpClient, type HttpRequest, type HttpTarget } from "./http"
import type { Redactor } from "./redact"
import {
  buildCancelBody,
  buildCreatePaymentBody,
  fillPaymentIdPath,
  type CancelOrRefundInput,
  type CreatePaymentInput,
} from "./requests"
import { readResponse } from "./response"
import {
  CancelResponseSchema,
  PaymentCreationResponseSchema,
  PaymentStatusResponseSchema,
  type RefpayCancelResult,
  type RefpayCreatedPayment,
  type RefpayPaymentStatus,
} from "./payment-schemas"
import type { TokenCache } from "./token-cache"

/**
 * The three payment calls. Each one is authorized by the token cache; a 401 means the platform no longer accepts
 * our token (expired early, rotated keys), so the token is dropped, one new one is fetched and the call is repeated
 * once with the same body (spec 5.7). A second 401 is a real authentication problem and is thrown.
 * Status strings are returned as the platform wrote them; the provider maps them.
 */

export interface PaymentsApiOptions {
  http: HttpClient
  tokens: TokenCache
  paymentsUrl: string
  paths: RefpayPaths
  logger: RefpayLogger
  redactor: Redactor
}

export interface PaymentsApi {
  createPayment(input: CreatePaymentInput): Promise<RefpayCreatedPayment>
  getPayment(paymentId: string): Promise<RefpayPaymentStatus>
  cancelOrRefund(input: CancelOrRefundInput): Promise<RefpayCancelResult>
}

const JSON_CONTENT_TYPE = "application/json"

/** A payment call before it is authorized: authorizedCall adds the headers, token included, to each sending. */
interface PaymentCall {
  operation: string
  method: HttpRequest["method"]
  url: string | HttpTarget
  /** JSON, serialized once; sent with Content-Type application/json. */
  body?: string
  requestId?: string
}

export function createPaymentsApi(options: PaymentsApiOptions): PaymentsApi {
  const { http, tokens, logger, redactor } = options
  const createUrl = splitOnce(joinUrl(options.paymentsUrl, options.paths.createPayment))

  /**
   * Sends one payment call with a token, repeating it once with a fresh token on 401, then parses the answer.
   * `schema` yields the camelCase result without `raw`; the body as received is added as `raw`.
   */
  async function authorizedCall<T extends object>(
    call: PaymentCall,
    schema: z.ZodType<T>
  ): Promise<T & { raw: Record<string, unknown> }> {
    // The cached token without waiting when it is fresh, which is nearly always.
    const first = tokens.freshAuthorization() ?? (await tokens.authorizationHeader())
    let res = await http.send(authorized(call, first.header))
    if (res.status === 401) {
      logger.info(`REFPAY ${call.operation}: token refused (401); fetching a new token and retrying once`)
      tokens.invalidate(first.token)
      const second = await tokens.authorizationHeader()
      res = await http.send(authorized(call, second.header))
    }
    const parsed = readResponse(res, schema, { operation: call.operation, requestId: call.requestId, redactor })
    // readResponse only returns for a body that passed the schema, which requires a JSON object. Every payment
    // schema ends in a transform that builds a new object, so the result is ours to complete without a copy.
    const result = parsed as T & { raw: Record<string, unknown> }
    result.raw = res.body as Record<string, unknown>
    return result
  }

  return {
    async createPayment(input) {
      const requestId = input.requestId ?? randomUUID()
      // Serialized once: every retry, and the 401 repeat, send these exact bytes.
      const body = JSON.stringify(buildCreatePaymentBody(input, requestId))
      return await authorizedCall(
        { operation: "create payment", method: "POST", url: createUrl, body, requestId },
        PaymentCreationResponseSchema
      )
    },

    async getPayment(paymentId) {
      const operation = "get payment"
      const path = fillPaymentIdPath(operation, options.paths.paymentInfo, paymentId)
      return await authorizedCall(
        { operation, method: "GET", url: joinUrl(options.paymentsUrl, path) },
        PaymentStatusResponseSchema
      )
    },

    async cancelOrRefund(input) {
      const requestId = input.requestId ?? randomUUID()
      const body = JSON.stringify(buildCancelBody(input, requestId))
      const operation = "cancel/refund"
      const path = fillPaymentIdPath(operation, options.paths.cancelPayment, input.paymentId)
      return await authorizedCall(
        { operation, method: "POST", url: joinUrl(options.paymentsUrl, path), body, requestId },
        CancelResponseSchema
      )
    },
  }
}

function authorized(call: PaymentCall, authorization: string): HttpRequest {
  return {
    operation: call.operation,
    method: call.method,
    url: call.url,
    headers: call.body === undefined ? { authorization } : { "content-type": JSON_CONTENT_TYPE, authorization },
    body: call.body,
    requestId: call.requestId,
  }
}

/**
 * A fixed endpoint, split into origin and path once instead of on every call. Left as the string when it does not
 * parse, so the call fails the way any call to a bad URL does (a RefpayConnectionError), not the client's creation.
 */
function splitOnce(url: string): string | HttpTarget {
  try {
    return httpTarget(url)
  } catch {
    return url
  }
}
