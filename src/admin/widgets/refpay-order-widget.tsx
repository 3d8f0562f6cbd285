import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Alert, Badge, Button, Container, Heading, Text, toast } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"
import type { RefpayPaymentView } from "../../rules/payment-view"
import { formatDateTime, refpayAdmin } from "../lib/refpay-admin-api"

/**
 * REFPAY on the order page: entity, reference, amount and expiry, whether the order may ship, and "Check status
 * now" (the same sync a webhook or the poll job runs). Renders nothing for orders not paid with REFPAY.
 */

type Load =
  | { state: "loading" }
  | { state: "none" }
  | { state: "error"; message: string }
  | { state: "ready"; view: AdminRefpayView }

/** The admin route's view: the payment view plus the last status check. */
type AdminRefpayView = RefpayPaymentView & {
  last_check?: { outcome: string | null; checked_at: string | null; failures: number } | null
  /** Every reference of the order, oldest first. */
  history?: RefpayPaymentView[]
}

const RefpayOrderWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const [load, setLoad] = useState<Load>({ state: "loading" })
  const [checking, setChecking] = useState(false)
  const [renewing, setRenewing] = useState(false)

  useEffect(() => {
    let active = true
    setLoad({ state: "loading" })
    refpayAdmin<{ refpay: AdminRefpayView }>("GET", `/admin/refpay/orders/${encodeURIComponent(order.id)}`)
      .then((answer) => {
        if (!active) return
        if (answer.status === 404) setLoad({ state: "none" })
        else if (answer.ok) setLoad({ state: "ready", view: answer.body.refpay })
        else setLoad({ state: "error", message: answer.message ?? `HTTP ${answer.status}` })
      })
      .catch((error: Error) => active && setLoad({ state: "error", message: error.message }))
    return () => {
      active = false
    }
  }, [order.id])

  const checkNow = useCallback(async () => {
    setChecking(true)
    try {
      const answer = await refpayAdmin<{ refpay: AdminRefpayView }>(
        "POST",
        `/admin/refpay/orders/${encodeURIComponent(order.id)}/sync`
      )
      if (!answer.ok) {
        // The check ran and was recorded (e.g. the platform does not know the reference): show it.
        const fresh = await refpayAdmin<{ refpay: AdminRefpayView }>(
          "GET",
          `/admin/refpay/orders/${encodeURIComponent(order.id)}`
        )
        if (fresh.ok) setLoad({ state: "ready", view: fresh.body.refpay })
        throw new Error(answer.message ?? `HTTP ${answer.status}`)
      }
      const view = answer.body.refpay
      setLoad({ state: "ready", view })
      toast.success("REFPAY status checked", {
        description: `${describe(view).label} (platform: ${view.platform_status})`,
      })
    } catch (error) {
      toast.error("Could not check the REFPAY status", { description: (error as Error).message })
    } finally {
      setChecking(false)
    }
  }, [order.id])

  const issueNewReference = useCallback(async () => {
    if (!window.confirm("Issue a new REFPAY reference for this order and e-mail it to the customer?")) return
    setRenewing(true)
    try {
      const answer = await refpayAdmin<{ refpay: AdminRefpayView }>(
        "POST",
        `/admin/refpay/orders/${encodeURIComponent(order.id)}/renew`
      )
      if (!answer.ok) throw new Error(answer.message ?? `HTTP ${answer.status}`)
      const view = answer.body.refpay
      setLoad({ state: "ready", view })
      toast.success("New REFPAY reference issued", {
        description: `Entity ${view.entity}, reference ${view.reference}`,
      })
    } catch (error) {
      toast.error("Could not issue a new reference", { description: (error as Error).message })
    } finally {
      setRenewing(false)
    }
  }, [order.id])

  if (load.state === "loading" || load.state === "none") return null

  if (load.state === "error") {
    return (
      <Container className="px-6 py-4" data-testid="refpay-widget">
        <Heading level="h2">REFPAY</Heading>
        <Text size="small" className="text-ui-fg-error mt-2" data-testid="refpay-error">
          Could not load the REFPAY payment: {load.message}
        </Text>
      </Container>
    )
  }

  const view = load.view
  const state = describe(view)
  return (
    <Container className="divide-y p-0" data-testid="refpay-widget" data-status={view.status}>
      <div className="flex items-center justify-between gap-x-2 px-6 py-4">
        <Heading level="h2">REFPAY</Heading>
        <Badge color={state.color} size="2xsmall" data-testid="refpay-status">
          {state.label}
        </Badge>
      </div>

      {view.paid_after_cancellation && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="refpay-paid-after-cancellation">
            Paid after the order was cancelled: refund or contact the customer.
            {view.paid_after_cancellation_at
              ? ` (payment recorded ${formatDateTime(view.paid_after_cancellation_at)})`
              : ""}
          </Alert>
        </div>
      )}
      {view.last_check?.outcome === "unknown_payment" && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="refpay-unknown-to-platform">
            The platform does not know this reference (last checked {formatDateTime(view.last_check.checked_at)}).
            Nothing was cancelled; check the shop's REFPAY environment and credentials, or the payment on the platform.
          </Alert>
        </div>
      )}
      {view.last_check?.outcome === "platform_error" && (
        <div className="px-6 py-4">
          <Alert variant="warning" data-testid="refpay-check-failed">
            The last {view.last_check.failures > 1 ? `${view.last_check.failures} status checks` : "status check"} could
            not reach the platform; it is checked again automatically.
          </Alert>
        </div>
      )}
      {state.warning && !view.paid_after_cancellation && (
        <div className="px-6 py-4">
          <Alert variant="warning" data-testid="refpay-do-not-ship">
            {state.warning}
          </Alert>
        </div>
      )}

      <dl className="text-ui-fg-subtle grid grid-cols-2 gap-y-2 px-6 py-4">
        <Row label="Entity" value={view.entity} testId="refpay-entity" mono />
        <Row label="Reference" value={view.reference} testId="refpay-reference" mono />
        <Row label="Amount" value={view.amount_display} testId="refpay-amount" />
        <Row label="Platform status" value={view.platform_status} testId="refpay-platform-status" />
        <Row
          label={view.expired ? "Expired" : "Pay by"}
          value={formatDateTime(view.expires_at)}
          testId="refpay-expires-at"
        />
        <Row label="Last checked" value={formatDateTime(view.checked_at)} testId="refpay-checked-at" />
      </dl>

      {(view.history?.length ?? 0) > 1 && (
        <div className="px-6 py-4" data-testid="refpay-history">
          <Text size="small" leading="compact" weight="plus">
            References of this order
          </Text>
          <ul className="mt-2 flex flex-col gap-y-1">
            {view.history!.map((item) => (
              <li
                key={item.payment_session_id}
                className="flex items-center justify-between gap-x-2"
                data-testid="refpay-history-item"
              >
                <Text size="small" leading="compact" className="font-mono">
                  {item.entity} / {item.reference}
                </Text>
                <Badge size="2xsmall" color={describe(item).color}>
                  {describe(item).label}
                </Badge>
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="flex justify-end gap-x-2 px-6 py-4">
        {canIssueNewReference(order, view) && (
          <Button
            size="small"
            variant="secondary"
            onClick={issueNewReference}
            isLoading={renewing}
            data-testid="refpay-issue-new-reference"
          >
            Issue a new reference
          </Button>
        )}
        <Button size="small" variant="secondary" onClick={checkNow} isLoading={checking} data-testid="refpay-check-now">
          Check status now
        </Button>
      </div>
    </Container>
  )
}

const Row = ({ label, value, testId, mono }: { label: string; value: string; testId: string; mono?: boolean }) => (
  <>
    <dt>
      <Text size="small" leading="compact" weight="plus">
        {label}
      </Text>
    </dt>
    <dd>
      <Text size="small" leading="compact" className={mono ? "font-mono" : undefined} data-testid={testId}>
        {value || "-"}
      </Text>
    </dd>
  </>
)

/** An open order whose references all expired or were cancelled unpaid (the server checks it again). */
function canIssueNewReference(order: AdminOrder, view: AdminRefpayView): boolean {
  const all = view.history?.length ? view.history : [view]
  return order.status !== "canceled" && all.every((item) => item.status === "cancelled")
}

type BadgeColor = "green" | "red" | "orange" | "grey"

/** The one line a shop owner reads first, and the warning that goes with it. */
function describe(view: RefpayPaymentView): { label: string; color: BadgeColor; warning?: string } {
  switch (view.status) {
    case "paid":
      return view.do_not_ship
        ? { label: "Paid", color: "green", warning: "Paid, but the order is cancelled: do not ship." }
        : { label: "Paid", color: "green" }
    case "awaiting":
      return view.expired
        ? { label: "Expired", color: "red", warning: "The reference expired unpaid: do not ship." }
        : {
            label: "Awaiting payment — do not ship",
            color: "orange",
            warning:
              "Do not ship until REFPAY confirms the payment. The order becomes paid by itself when the customer pays.",
          }
    case "cancelled":
      return view.expired ? { label: "Expired", color: "grey" } : { label: "Cancelled", color: "grey" }
    case "failed":
      return { label: "Failed", color: "red", warning: "The payment failed: do not ship." }
  }
}

export const config = defineWidgetConfig({
  zone: "order.details.side.after",
})

export default RefpayOrderWidget
