import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import MailboxNotificationService from "./service"

export default ModuleProvider(Modules.NOTIFICATION, { services: [MailboxNotificationService] })
