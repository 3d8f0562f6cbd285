import { Copy, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { WebhooksView } from "../../../lib/refpay-api"

/** The URL to paste into the platform's back-office, with where its host came from. */
export const WebhookUrl = ({ view }: { view: WebhooksView }) => {
  const { t } = useTranslation()
  return (
    <div className="flex flex-col gap-y-1">
      <Text size="small" weight="plus">
        {t("refpay.webhooks.url.label")}
      </Text>
      <div className="bg-ui-bg-subtle flex items-center justify-between gap-x-2 rounded-md border px-3 py-2">
        <Text size="small" className="break-all font-mono" data-testid="refpay-webhook-url">
          {view.url}
        </Text>
        <Copy content={view.url} data-testid="refpay-webhook-url-copy" />
      </div>
      <Text size="xsmall" className="text-ui-fg-muted">
        {t(
          view.url_source === "backend_url" ? "refpay.webhooks.url.fromBackendUrl" : "refpay.webhooks.url.fromRequest"
        )}
        {view.medusa_url ? ` ${t("refpay.webhooks.url.medusaRoute", { url: view.medusa_url })}` : ""}
      </Text>
    </div>
  )
}
