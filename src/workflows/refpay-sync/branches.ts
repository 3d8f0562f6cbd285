import type { ExpiryOutcome } from "../../rules/expiry-policy"
import type { SyncDecision } from "../../rules/sync-decision"
import type { CancelOutcome } from "./steps/close-reference"
import type { SyncSnapshot } from "./steps/read-refpay-payment"

type Kind = SyncDecision["kind"]

/**
 * Which of the sync's branches a decision takes, one row per decision kind (the compiler insists on every kind):
 * the workflow's `when()` conditions read this table, so a step never has to skip itself. `onlyCheck`: when nothing
 * is captured, the sync only records the check (and may send the reminder): see onlyRecordsCheck.
 */
const BRANCHES: Record<Kind, { cancelReference: boolean; capture: boolean; flagLate: boolean; onlyCheck: boolean }> = {
  none: { cancelReference: false, capture: false, flagLate: false, onlyCheck: true },
  record_check: { cancelReference: false, capture: false, flagLate: false, onlyCheck: true },
  capture: { cancelReference: false, capture: true, flagLate: false, onlyCheck: false },
  capture_late: { cancelReference: false, capture: true, flagLate: true, onlyCheck: false },
  capture_refunded: { cancelReference: false, capture: true, flagLate: false, onlyCheck: false },
  record_refund: { cancelReference: false, capture: false, flagLate: false, onlyCheck: false },
  flag_late: { cancelReference: false, capture: false, flagLate: true, onlyCheck: false },
  cancel_order: { cancelReference: false, capture: false, flagLate: false, onlyCheck: false },
  mark_canceled: { cancelReference: false, capture: false, flagLate: false, onlyCheck: false },
  cancel_reference: { cancelReference: true, capture: false, flagLate: false, onlyCheck: false },
  expire: { cancelReference: true, capture: false, flagLate: false, onlyCheck: false },
  amount_mismatch: { cancelReference: false, capture: false, flagLate: false, onlyCheck: false },
  reissue: { cancelReference: true, capture: false, flagLate: false, onlyCheck: false },
}

type Read = Extract<SyncSnapshot, { kind: "read" }>

function branchesOf(snapshot: SyncSnapshot) {
  return snapshot.kind === "read" ? BRANCHES[snapshot.decision.kind] : undefined
}

export function asksPlatformToCancel(snapshot: SyncSnapshot): snapshot is Read {
  return !!branchesOf(snapshot)?.cancelReference
}

export function capturesPayment(snapshot: SyncSnapshot): snapshot is Read {
  return !!branchesOf(snapshot)?.capture
}

export function flagsLatePayment(snapshot: SyncSnapshot): snapshot is Read {
  return !!branchesOf(snapshot)?.flagLate
}

/**
 * The sync would do nothing but record the check: the platform still says what Medusa knows (waiting for the
 * reference's amount within its validity, or cancelled like the session), nothing is captured, and no reminder is
 * owed (`reminderOwed`: due and not yet sent). The poll run records such checks in a batch instead of running
 * this workflow for each; every other snapshot goes through the workflow.
 */
export function onlyRecordsCheck(snapshot: SyncSnapshot, reminderOwed: boolean): snapshot is Read {
  return !!branchesOf(snapshot)?.onlyCheck && !snapshotOf(snapshot).state.payment?.capturedAt && !reminderOwed
}

/** The snapshot a branch's step was given: its `when()` let only a read through. */
export function snapshotOf(snapshot: SyncSnapshot): Read {
  if (snapshot.kind !== "read") throw new Error(`REFPAY sync: a step of a branch ran on a ${snapshot.kind} snapshot`)
  return snapshot
}

export function wasRead(snapshot: SyncSnapshot): snapshot is Read {
  return snapshot.kind === "read"
}

export function expires(snapshot: SyncSnapshot): snapshot is Read {
  return snapshot.kind === "read" && snapshot.decision.kind === "expire"
}

/** After the reference is closed: cancel the order (the platform will never be paid, or the expiry policy says so)? */
export function cancelsOrder(snapshot: SyncSnapshot, expiry: ExpiryOutcome | undefined): snapshot is Read {
  if (snapshot.kind !== "read" || !snapshot.state.order || snapshot.state.order.status === "canceled") return false
  return snapshot.decision.kind === "cancel_order" || (snapshot.decision.kind === "expire" && expiry === "cancel_order")
}

/**
 * A new reference for the same order, for what its payment collection asks now: after an expiry (policy `renew`,
 * within the renewal limit), or after the order's amount changed and the platform cancelled the old reference
 * (never when the customer's payment met the cancellation: the next pass records that payment), and only for an
 * amount a reference may be issued for.
 */
export function renewsReference(
  snapshot: SyncSnapshot,
  expiry: ExpiryOutcome | undefined,
  cancelled: CancelOutcome
): snapshot is Read {
  // Nothing due, or an amount outside the account's limits: no reference is attempted (the order's REFPAY panel
  // shows what is due, and a request for it says why it is refused).
  if (snapshot.kind !== "read" || !snapshot.canIssue) return false
  const { decision } = snapshot
  if (decision.kind === "expire") return expiry === "renew"
  return decision.kind === "reissue" && cancelled.platformDid === "cancelled"
}

/** The platform met the customer's payment when asked to cancel: a second pass records what it did. */
export function cancelMetPayment(cancelled: CancelOutcome): boolean {
  return cancelled.platformPaid
}
