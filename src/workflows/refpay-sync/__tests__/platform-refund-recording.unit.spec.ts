import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordingQuery } from "../../../__tests__/fixtures/recording-query"
import type { RefpayPaymentRecord } from "../../../lib/refpay"
import { beginPlatformRefundRecordingStep } from "../steps/record-payment"
import type { SyncSnapshot } from "../steps/read-refpay-payment"

const recording = createWorkflow("platform-refund-recording-test", (snapshot: SyncSnapshot) => {
  return new WorkflowResponse(beginPlatformRefundRecordingStep({ snapshot }))
})

/** A paid snapshot as the sync's first step makes it, with the platform's records given. */
function paidSnapshot(records: RefpayPaymentRecord[]): SyncSnapshot {
  return {
    kind: "read",
    state: { id: "payses_1", data: { refpay: { payment_id: "rp_1" } } },
    platform: { paymentId: "rp_1", status: "APPROVED", amountCents: 1000, records, raw: {} },
    decision: { kind: "capture" },
    canIssue: false,
  } as unknown as SyncSnapshot
}

describe("the beginning of a platform refunds' recording", () => {
  it("does not read Medusa's side again when the platform lists no refund (every capture)", async () => {
    const { asked, container } = recordingQuery()
    const { result } = await recording(container).run({ input: paidSnapshot([{ type: "PAYMENT", amountCents: 1000 }]) })
    expect({ result, asked }).toEqual({ result: null, asked: [] })
  })

  it("reads Medusa's side afresh when the platform lists a refund, to match it by key", async () => {
    const { asked, container } = recordingQuery()
    const refund = { type: "REFUND", amountCents: 400, idempotencyKey: "rp_1:refund:1" }
    const { result } = await recording(container).run({ input: paidSnapshot([refund]) })
    expect(result).toBeNull()
    expect(asked.map((query) => query.entity)).toContain("payment_session")
  })
})
