import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { RefpayProviderService } from "./service"

export default ModuleProvider(Modules.PAYMENT, {
  services: [RefpayProviderService],
})
