import { validateAndTransformBody, type MiddlewareRoute } from "@medusajs/framework/http"
import { z } from "@medusajs/framework/zod"

/** `POST /store/refpay/payment-collections/:id` takes no input: the collection is the path's. */
const StorePaymentCollectionRequestBody = z.object({})

/** The payment-link routes' middlewares, spread into src/api/middlewares.ts (Medusa reads only that file). */
export const storePaymentCollectionRoutes: MiddlewareRoute[] = [
  {
    matcher: "/store/refpay/payment-collections/:id",
    method: ["POST"],
    middlewares: [validateAndTransformBody(StorePaymentCollectionRequestBody)],
  },
]
