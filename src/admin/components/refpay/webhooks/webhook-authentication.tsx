import { Badge, Text } from "@medusajs/ui"
import { Trans, useTranslation } from "react-i18next"
import type { WebhooksView } from "../../../lib/refpay-api"

/** How a delivery proves it comes from the platform, with whether the shop's secret is set. */
export const WebhookAuthentication = ({ authentication }: { authentication: WebhooksView["authentication"] }) => {
  const { t } = useTranslation()
  const set = authentication.secret === "set"
  return (
    <div className="flex flex-col gap-y-1">
      <Text size="small" weight="plus">
        {t("refpay.webhooks.authentication.label")}
      </Text>
      <Text size="small" className="text-ui-fg-subtle" data-testid="refpay-webhook-auth">
        <Trans
          t={t}
          i18nKey="refpay.webhooks.authentication.sentence"
          values={{
            variable: authentication.variable,
            header: authentication.header,
            state: t(set ? "refpay.webhooks.authentication.set" : "refpay.webhooks.authentication.missing"),
          }}
          components={{
            badge: <Badge size="2xsmall" color={set ? "green" : "red"} />,
            code: <code className="font-mono" />,
          }}
        />
      </Text>
    </div>
  )
}
