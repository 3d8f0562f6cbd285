import { Container } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { RefpaySettingsView } from "../../../../api/admin/refpay/settings/settings-view"
import { ExpiryGroup, LatePaymentsGroup, PollGroup, TimeoutsGroup } from "./behaviour-groups"
import { CredentialsGroup } from "./credentials-group"
import { PlatformGroup } from "./platform-group"
import { SectionHeader } from "../section-header"

/**
 * The settings as the server resolved them, grouped as the README documents them, each with the environment
 * variable that changes it. Credentials show only whether they are set.
 */
export const ConfigurationSection = ({ settings }: { settings: RefpaySettingsView }) => {
  const { t } = useTranslation()
  const account = settings.account
  return (
    <Container className="divide-y p-0" data-testid="refpay-configuration">
      <SectionHeader
        heading={t("refpay.configuration.heading")}
        intro={`${t("refpay.configuration.intro")}${account ? ` ${t("refpay.configuration.account", { account, prefix: account.toUpperCase() })}` : ""}`}
      />
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
