import { useTranslation } from "react-i18next"
import type { WebhookRoute } from "../../../../rules/webhook"

/** The plugin's own webhook route: a path, the same in every language. */
export const REFPAY_HOOK_PATH = "/hooks/refpay"

/** Which route a delivery came through, as a sentence names it: the plugin's path, or Medusa's own route. */
export function useRouteName(): (route: WebhookRoute) => string {
  const { t } = useTranslation()
  return (route) => (route === "refpay" ? REFPAY_HOOK_PATH : t("refpay.common.routes.medusaRoute"))
}
