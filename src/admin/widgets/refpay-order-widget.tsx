import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Container, Heading, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { listsPaymentRequests } from "../components/refpay/order/collection-state"
import { OrderActions } from "../components/refpay/order/order-actions"
import { OrderAlerts } from "../components/refpay/order/order-alerts"
import { PaymentDetails } from "../components/refpay/order/payment-details"
import { OrderPaymentRequests } from "../components/refpay/order/payment-requests"
import { describePayment } from "../components/refpay/order/payment-state"
import { ReferenceHistory } from "../components/refpay/order/reference-history"
import { errorMessage } from "../lib/errors"
import type { AdminRefpayView } from "../lib/refpay-api"
import { useOrderPaymentRequests, useOrderRefpay } from "../lib/refpay-queries"

/**
 * REFPAY on the order page: entity, reference, amount and expiry, whether the order may ship, "Check status now"
 * (the same sync a webhook or the poll job runs), and the order's payment collections with "Request payment by
 * REFPAY" when it owes more. Renders nothing for orders not paid with REFPAY, unless REFPAY can take what they owe.
 */
const RefpayOrderWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { data: view, error } = useOrderRefpay(order.id)
  // A failed refresh (after a failed check) leaves the last view on screen: the toast says what went wrong.
  if (view) return <RefpayPayment order={order} view={view} />
  if (error) return <LoadError message={errorMessage(error)} />
  if (view === null) return <RefpayPaymentRequest orderId={order.id} />
  return null
}

const RefpayPayment = ({ order, view }: { order: AdminOrder; view: AdminRefpayView }) => {
  const { t } = useTranslation()
  const state = describePayment(view, t)
  return (
    <Container className="divide-y p-0" data-testid="refpay-widget" data-status={view.status}>
      <div className="flex items-center justify-between gap-x-2 px-6 py-4">
        <Heading level="h2">REFPAY</Heading>
        <Badge color={state.color} size="2xsmall" data-testid="refpay-status">
          {state.label}
        </Badge>
      </div>
      <OrderAlerts view={view} state={state} />
      <PaymentDetails view={view} />
      {view.history && view.history.length > 1 && <ReferenceHistory history={view.history} />}
      <OrderPaymentRequests orderId={order.id} panelShowsReference />
      <OrderActions order={order} view={view} />
    </Container>
  )
}

/**
 * An order with no REFPAY reference yet (one created in the admin from a draft order, say): the panel appears only
 * when REFPAY can take what the order owes, so an order paid another way keeps showing nothing.
 */
const RefpayPaymentRequest = ({ orderId }: { orderId: string }) => {
  const { data: requests } = useOrderPaymentRequests(orderId)
  if (!requests || !listsPaymentRequests(requests, false)) return null
  return (
    <Container className="divide-y p-0" data-testid="refpay-widget">
      <div className="px-6 py-4">
        <Heading level="h2">REFPAY</Heading>
      </div>
      <OrderPaymentRequests orderId={orderId} panelShowsReference={false} />
    </Container>
  )
}

const LoadError = ({ message }: { message: string }) => {
  const { t } = useTranslation()
  return (
    <Container className="px-6 py-4" data-testid="refpay-widget">
      <Heading level="h2">REFPAY</Heading>
      <Text size="small" className="text-ui-fg-error mt-2" data-testid="refpay-error">
        {t("refpay.order.loadError", { message })}
      </Text>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.side.after",
})

export default RefpayOrderWidget
