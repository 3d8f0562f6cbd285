import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { asError } from "../../../../medusa-compat/runas-step-errors"
import { isPlacedOrder } from "../../../../queries/order-collections"

/** The store's REFPAY routes answer for placed orders only: a draft order is not found, as Medusa's own store route says. */
export async function refpayStorePlacedOrder(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    if (!(await isPlacedOrder(req.scope, String(req.params.id))))
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${req.params.id} was not found`)
    next()
  } catch (error) {
    next(asError(error))
  }
}
