import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CreditCard } from "@medusajs/icons"
import { Alert, Container, Heading, Text } from "@medusajs/ui"
import { useCallback, useState } from "react"
import type { RefpaySettingsView } from "../../../../admin-backend/settings-view"
import { AttentionSection, type AttentionCounts } from "../../../components/refpay/attention-section"
import { ConfigurationSection } from "../../../components/refpay/configuration-section"
import { ConnectionPanel } from "../../../components/refpay/connection-panel"
import { SearchSection } from "../../../components/refpay/search-section"
import { WebhooksSection } from "../../../components/refpay/webhooks-section"
import { useRefpayGet } from "../../../lib/use-refpay-admin"

/**
 * Settings → REFPAY: the environment and a connection test, the payments that need the shop owner, a search by
 * reference, webhooks (URL, authentication, deliveries) and the configuration as the server resolved it.
 */
export interface Registration {
  provider_id: string
  account: string | null
  environment: "sandbox" | "production"
}

const RefpaySettingsPage = () => {
  const [providerId, setProviderId] = useState<string | undefined>(undefined)
  const { data, error } = useRefpayGet<{ settings: RefpaySettingsView; registrations: Registration[] }>(
    "/admin/refpay/settings",
    { provider_id: providerId }
  )
  const settings = data?.settings ?? null
  const registrations = data?.registrations ?? []
  // The tab counts are asked again after a refund; until the first answer (or if it fails) the tabs show "–".
  const [countsKey, setCountsKey] = useState(0)
  const loadCounts = useCallback(() => setCountsKey((k) => k + 1), [])
  const counts =
    useRefpayGet<{ counts: AttentionCounts }>("/admin/refpay/attention", {}, countsKey).data?.counts ?? null

  if (error) {
    return (
      <Container className="px-6 py-4" data-testid="refpay-settings-error">
        <Heading level="h1">REFPAY</Heading>
        <Alert variant="error" className="mt-4">
          Could not load the REFPAY settings: {error}
        </Alert>
      </Container>
    )
  }
  if (!settings) {
    return (
      <Container className="px-6 py-4">
        <Heading level="h1">REFPAY</Heading>
        <Text size="small" className="text-ui-fg-subtle mt-2">
          Loading…
        </Text>
      </Container>
    )
  }
  return (
    <div className="flex flex-col gap-y-3" data-testid="refpay-settings-page">
      <ConnectionPanel
        key={settings.provider_id}
        settings={settings}
        registrations={registrations}
        onSelect={setProviderId}
      />
      <AttentionSection counts={counts} onChange={loadCounts} several={registrations.length > 1} />
      <SearchSection several={registrations.length > 1} />
      <WebhooksSection key={`webhooks-${settings.provider_id}`} providerId={settings.provider_id} />
      <ConfigurationSection settings={settings} />
    </div>
  )
}

export const config = defineRouteConfig({
  label: "REFPAY",
  icon: CreditCard,
})

export default RefpaySettingsPage
