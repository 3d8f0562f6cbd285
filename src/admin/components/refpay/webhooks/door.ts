import { useTranslation } from "react-i18next"

/** The plugin's own webhook route: a path, the same in every language. */
export const REFPAY_HOOK_PATH = "/hooks/refpay"

export type Door = "medusa" | "refpay"

/** Which route a delivery came through, as a sentence names it: the plugin's path, or Medusa's own route. */
export function useDoorName(): (door: Door) => string {
  const { t } = useTranslation()
  return (door) => (door === "refpay" ? REFPAY_HOOK_PATH : t("refpay.common.doors.medusaRoute"))
}
