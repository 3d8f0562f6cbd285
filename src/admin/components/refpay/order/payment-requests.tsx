import { Badge, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { PaymentRequestCollectionView } from "../../../../queries/order-payment-requests"
import { errorMessage } from "../../../lib/errors"
import { useFormat } from "../../../lib/format"
import { useOrderPaymentRequests } from "../../../lib/refpay-queries"
import { COLLECTION_COLORS, listsPaymentRequests, opensCollection } from "./collection-state"
import { PayBy, ReferenceFields } from "./payment-details"
import { RequestPaymentButton } from "./request-payment-button"

/**
 * The order's payment collections: what each asks for, where it stands, its REFPAY reference, and "Request payment
 * by REFPAY" where REFPAY can take the money. Shown once an edit, claim or exchange left the order with more than its
 * checkout's payment, or for an order created in the admin (`listsPaymentRequests`).
 */
export const OrderPaymentRequests = ({
  orderId,
  panelShowsReference,
}: {
  orderId: string
  panelShowsReference: boolean
}) => {
  const { t } = useTranslation()
  const { data: requests, error } = useOrderPaymentRequests(orderId)
  // A failed refresh leaves the last list on screen, as the panel does with its payment.
  if (!requests) return error && panelShowsReference ? <RequestsLoadError message={errorMessage(error)} /> : null
  if (!listsPaymentRequests(requests, panelShowsReference)) return null
  return (
    <div className="px-6 py-4" data-testid="refpay-payment-requests">
      <Text size="small" leading="compact" weight="plus">
        {t("refpay.order.requests.heading")}
      </Text>
      <Outstanding owedCents={requests.outstanding_cents} />
      <ul className="mt-2 flex flex-col divide-y">
        {requests.collections.map((collection) => (
          <CollectionRow key={collection.id} orderId={orderId} collection={collection} />
        ))}
      </ul>
      {opensCollection(requests) && (
        <div className="mt-2 flex justify-end">
          <RequestPaymentButton orderId={orderId} amountCents={requests.outstanding_cents} />
        </div>
      )}
    </div>
  )
}

/** What the order still owes, all collections together (Medusa's pending difference). */
const Outstanding = ({ owedCents }: { owedCents: number }) => {
  const { t } = useTranslation()
  const { cents } = useFormat()
  return (
    <Text size="small" leading="compact" className="text-ui-fg-subtle mt-1" data-testid="refpay-outstanding">
      {owedCents > 0
        ? t("refpay.order.requests.outstanding", { amount: cents(owedCents) })
        : t("refpay.order.requests.settled")}
    </Text>
  )
}

/** One collection: its amount and state, its reference when it has one, and the request while it has none. */
const CollectionRow = ({ orderId, collection }: { orderId: string; collection: PaymentRequestCollectionView }) => {
  const { t } = useTranslation()
  const { cents } = useFormat()
  return (
    <li
      className="flex flex-col gap-y-2 py-2"
      data-testid="refpay-collection"
      data-collection-id={collection.id}
      data-state={collection.state}
    >
      <div className="flex items-center justify-between gap-x-2">
        <Text size="small" leading="compact" weight="plus" data-testid="refpay-collection-due">
          {cents(collection.amount_cents, collection.currency_code)}
        </Text>
        <Badge size="2xsmall" color={COLLECTION_COLORS[collection.state]} data-testid="refpay-collection-state">
          {t(`refpay.order.requests.states.${collection.state}`)}
        </Badge>
      </div>
      {collection.refpay && (
        <dl className="text-ui-fg-subtle grid grid-cols-2 gap-y-2">
          <ReferenceFields view={collection.refpay} testIdPrefix="refpay-collection" />
          <PayBy view={collection.refpay} testId="refpay-collection-expires-at" />
        </dl>
      )}
      {collection.state === "requestable" && (
        <div className="flex justify-end">
          <RequestPaymentButton orderId={orderId} collectionId={collection.id} amountCents={collection.amount_cents} />
        </div>
      )}
    </li>
  )
}

const RequestsLoadError = ({ message }: { message: string }) => {
  const { t } = useTranslation()
  return (
    <Text size="small" className="text-ui-fg-error px-6 py-4" data-testid="refpay-payment-requests-error">
      {t("refpay.order.requests.loadError", { message })}
    </Text>
  )
}
