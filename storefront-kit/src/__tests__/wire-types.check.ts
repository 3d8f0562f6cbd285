// `npm run typecheck` fails here when the storefront's copy of the store routes' answers (storefront-kit/src/types.ts)
// and what the server builds (src/rules, src/queries) drift apart. A storefront gets the package's JavaScript, not
// its server sources, so the kit keeps its own types; this file keeps them the same.
import type { PreviousReferenceView, RefpayPaymentView as ServerView } from "../../../src/rules/payment-view"
import type { PaymentRequestCollectionView, PaymentRequestsView } from "../../../src/queries/order-payment-requests"
import type { PaymentCollectionAnswer } from "../../../src/api/store/refpay/payment-collections/[id]/payment-collection-view"
import type {
  RefpayPaymentCollection,
  RefpayPaymentCollectionAnswer,
  RefpayPaymentRequests,
  RefpayPaymentView,
  RefpayPreviousReference,
} from "../types"

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

export const wireTypesMatch: [
  Same<RefpayPaymentView, ServerView>,
  Same<RefpayPreviousReference, PreviousReferenceView>,
  Same<RefpayPaymentCollection, PaymentRequestCollectionView>,
  Same<RefpayPaymentRequests, PaymentRequestsView>,
  Same<RefpayPaymentCollectionAnswer, PaymentCollectionAnswer>,
] = [true, true, true, true, true]
