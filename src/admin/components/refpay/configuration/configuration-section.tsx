import { Container, Heading, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { RefpaySettingsView } from "../../../../admin-backend/settings-view"
import { ExpiryGroup, LatePaymentsGroup, PollGroup, TimeoutsGroup } from "./behaviour-groups"
import { CredentialsGroup } from "./credentials-group"
import { PlatformGroup } from "./platform-group"

/**
 * The settings as the server resolved them, grouped as the README documents them, each with the environment
 * variable that changes it. Credentials show only whether they are set.
 */
export const ConfigurationSection = ({ settings }: { settings: RefpaySettingsView }) => {
  const { t } = useTranslation()
  const account = settings.account
  return (
    <Container className="divide-y p-0" data-testid="refpay-configuration">
      <div className="px-6 py-4">
        <Heading level="h2">{t("refpay.configuration.heading")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t("refpay.configuration.intro")}
          {account ? ` ${t("refpay.configuration.account", { account, prefix: account.toUpperCase() })}` : ""}
        </Text>
      </div>
      <div className="grid grid-cols-1 gap-6 px-6 py-4 lg:grid-cols-2">
        <PlatformGroup settings={settings} />
        <CredentialsGroup settings={settings} />
        <TimeoutsGroup settings={settings} />
        <ExpiryGroup settings={settings} />
        <PollGroup settings={settings} />
        <LatePaymentsGroup settings={settings} />
      </div>
    </Container>
  )
}
