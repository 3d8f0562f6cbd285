import { ArrowPath } from "@medusajs/icons"
import { Alert, Container, Heading, IconButton, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { errorMessage } from "../../../lib/errors"
import { useRefreshWebhooks, useWebhookSetup } from "../../../lib/refpay-queries"
import { Deliveries } from "./deliveries"
import { WebhookSetup } from "./webhook-setup"

/**
 * Webhooks: the URL to give the platform with a copy button, how deliveries authenticate, warnings, a sandbox test
 * event, and the latest deliveries with what became of each.
 */
export const WebhooksSection = ({ providerId }: { providerId: string }) => {
  const { t } = useTranslation()
  const { data: view, error } = useWebhookSetup(providerId)
  const refresh = useRefreshWebhooks()

  return (
    <Container className="divide-y p-0" data-testid="refpay-webhooks">
      <div className="flex items-start justify-between gap-x-4 px-6 py-4">
        <div>
          <Heading level="h2">{t("refpay.webhooks.heading")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {t("refpay.webhooks.intro")}
          </Text>
        </div>
        <IconButton
          size="small"
          variant="transparent"
          onClick={refresh}
          aria-label={t("refpay.webhooks.refresh")}
          data-testid="refpay-webhooks-refresh"
        >
          <ArrowPath />
        </IconButton>
      </div>
      {error && (
        <div className="px-6 py-4">
          <Alert variant="error">{t("refpay.webhooks.loadError", { message: errorMessage(error) })}</Alert>
        </div>
      )}
      {view && <WebhookSetup view={view} providerId={providerId} />}
      <Deliveries />
    </Container>
  )
}
