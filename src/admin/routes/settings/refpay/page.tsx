import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CreditCard } from "@medusajs/icons"
import { Alert, Container, Heading, Text } from "@medusajs/ui"
import { useState, type ReactNode } from "react"
import { useTranslation } from "react-i18next"
import { AttentionSection } from "../../../components/refpay/attention/attention-section"
import { ConfigurationSection } from "../../../components/refpay/configuration/configuration-section"
import { ConnectionPanel } from "../../../components/refpay/connection-panel"
import { NumbersSection } from "../../../components/refpay/numbers/numbers-section"
import { SearchSection } from "../../../components/refpay/search-section"
import { WebhooksSection } from "../../../components/refpay/webhooks/webhooks-section"
import { errorMessage } from "../../../lib/errors"
import { useRefpaySettings } from "../../../lib/refpay-queries"

/**
 * Settings → REFPAY: the environment and a connection test, the payments that need the shop owner, the owner's
 * numbers (conversion, recovered, reconciliation, the accountant's CSV), a search by reference, webhooks (URL,
 * authentication, deliveries) and the configuration as the server resolved it.
 */
const RefpaySettingsPage = () => {
  const { t } = useTranslation()
  const [providerId, setProviderId] = useState<string | undefined>(undefined)
  const { data, error } = useRefpaySettings(providerId)

  if (error) {
    return (
      <PageNotice testId="refpay-settings-error">
        <Alert variant="error" className="mt-4">
          {t("refpay.page.loadError", { message: errorMessage(error) })}
        </Alert>
      </PageNotice>
    )
  }
  if (!data) {
    return (
      <PageNotice>
        <Text size="small" className="text-ui-fg-subtle mt-2">
          {t("refpay.common.loading")}
        </Text>
      </PageNotice>
    )
  }
  const { settings, accounts } = data
  const several = accounts.length > 1
  return (
    <div className="flex flex-col gap-y-3" data-testid="refpay-settings-page">
      <ConnectionPanel key={settings.provider_id} settings={settings} accounts={accounts} onSelect={setProviderId} />
      <AttentionSection several={several} />
      <NumbersSection key={`numbers-${settings.provider_id}`} providerId={settings.provider_id} />
      <SearchSection several={several} />
      <WebhooksSection key={`webhooks-${settings.provider_id}`} providerId={settings.provider_id} />
      <ConfigurationSection settings={settings} />
    </div>
  )
}

/** The page while it has nothing else to show: its heading and one line. */
const PageNotice = ({ testId, children }: { testId?: string; children: ReactNode }) => (
  <Container className="px-6 py-4" data-testid={testId}>
    <Heading level="h1">REFPAY</Heading>
    {children}
  </Container>
)

export const config = defineRouteConfig({
  label: "REFPAY",
  icon: CreditCard,
})

export default RefpaySettingsPage
