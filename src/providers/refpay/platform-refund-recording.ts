import { AsyncLocalStorage } from "node:async_hooks"
import type { PlatformRefund } from "../../rules/refunds"

/** A refund the platform made outside a Medusa refund call, being recorded through Medusa's refund of a payment. */
export interface PlatformRefundRecording extends PlatformRefund {
  /** The REFPAY payment id it belongs to. */
  paymentId: string
}

const recording = new AsyncLocalStorage<PlatformRefundRecording>()

/**
 * Runs `record` (a Medusa refund workflow of the payment) so that the provider's refundPayment, reached through
 * Medusa's payment module inside it, records the platform's refund instead of making a new one. Medusa 2.21.2 passes
 * a provider nothing of the refund but its amount and id, so the intent travels with the call itself: only code
 * awaited inside `record` sees it, nothing is stored that could go stale, and the sync calls it under the
 * session's lock, so no other refund of the payment runs meanwhile.
 */
export function whileRecordingPlatformRefund<T>(refund: PlatformRefundRecording, record: () => Promise<T>): Promise<T> {
  return recording.run(refund, record)
}

/** The platform refund being recorded for this REFPAY payment, if the current call is such a recording. */
export function platformRefundBeingRecorded(paymentId: string): PlatformRefund | undefined {
  const current = recording.getStore()
  return current?.paymentId === paymentId ? { key: current.key, cents: current.cents } : undefined
}
