import { Alert, Badge, Button, Container, Heading, Select, Text } from "@medusajs/ui"
import { useState } from "react"
import { useTranslation } from "react-i18next"
import type { ConnectionTestResult } from "../../../api/admin/refpay/connection-test/connection-test"
import type { RefpaySettingsView } from "../../../api/admin/refpay/settings/settings-view"
import { errorMessage } from "../../lib/errors"
import type { RefpayAccount } from "../../lib/refpay-api"
import { useConnectionTest } from "../../lib/refpay-queries"
import { ConnectionResult } from "./connection-result"

/**
 * The top of the REFPAY page: which platform the shop talks to (sandbox or production, impossible to miss) and
 * "Test connection", whose answer says in plain words what worked and what failed.
 */
export const ConnectionPanel = ({
  settings,
  accounts,
  onSelect,
}: {
  settings: RefpaySettingsView
  accounts: RefpayAccount[]
  onSelect: (providerId: string) => void
}) => {
  const { t } = useTranslation()
  // The last result stays on screen while the next test runs, and when it fails to run.
  const [result, setResult] = useState<ConnectionTestResult | null>(null)
  const test = useConnectionTest(settings.provider_id)
  const several = accounts.length > 1

  return (
    <Container className="divide-y p-0" data-testid="refpay-connection">
      <div className="flex flex-wrap items-start justify-between gap-4 px-6 py-4">
        <PanelHeading settings={settings} several={several} />
        <div className="flex items-center gap-x-2">
          {several && <AccountSelect accounts={accounts} value={settings.provider_id} onSelect={onSelect} />}
          <Button
            size="small"
            variant="secondary"
            onClick={() => test.mutate(undefined, { onSuccess: setResult })}
            isLoading={test.isPending}
            data-testid="refpay-test-connection"
          >
            {t("refpay.connection.test")}
          </Button>
        </div>
      </div>
      <EnvironmentNote sandbox={settings.environment === "sandbox"} />
      {test.error && (
        <div className="px-6 py-4">
          <Alert variant="error" data-testid="refpay-connection-error">
            {t("refpay.connection.couldNotRun", { message: errorMessage(test.error) })}
          </Alert>
        </div>
      )}
      {result && <ConnectionResult result={result} />}
    </Container>
  )
}

const PanelHeading = ({ settings, several }: { settings: RefpaySettingsView; several: boolean }) => {
  const { t } = useTranslation()
  const sandbox = settings.environment === "sandbox"
  const account = settings.account ?? settings.provider_id
  return (
    <div className="flex flex-col gap-y-1">
      <div className="flex items-center gap-x-3">
        <Heading level="h1">REFPAY</Heading>
        <Badge
          size="base"
          color={sandbox ? "orange" : "green"}
          className="uppercase tracking-wide"
          data-testid="refpay-environment"
          data-environment={settings.environment}
        >
          {t(sandbox ? "refpay.connection.environment.sandbox" : "refpay.connection.environment.production")}
        </Badge>
      </div>
      <Text size="small" className="text-ui-fg-subtle">
        {t("refpay.connection.intro")}
        {several ? ` ${t("refpay.connection.sellerAccount", { account, providerId: settings.provider_id })}` : ""}
      </Text>
    </div>
  )
}

/** Shown only to shops with several REFPAY accounts. */
const AccountSelect = ({
  accounts,
  value,
  onSelect,
}: {
  accounts: RefpayAccount[]
  value: string
  onSelect: (providerId: string) => void
}) => {
  const { t } = useTranslation()
  return (
    <div className="w-[220px]">
      <Select size="small" value={value} onValueChange={onSelect}>
        <Select.Trigger data-testid="refpay-account">
          <Select.Value />
        </Select.Trigger>
        <Select.Content>
          {accounts.map((r) => {
            const name = r.account ? t("refpay.connection.account", { account: r.account }) : r.provider_id
            return (
              <Select.Item key={r.provider_id} value={r.provider_id}>
                {`${name} (${r.environment})`}
              </Select.Item>
            )
          })}
        </Select.Content>
      </Select>
    </div>
  )
}

const EnvironmentNote = ({ sandbox }: { sandbox: boolean }) => {
  const { t } = useTranslation()
  return (
    <div className="px-6 py-3">
      <Alert variant={sandbox ? "warning" : "success"} data-testid="refpay-environment-note">
        {t(sandbox ? "refpay.connection.sandboxNote" : "refpay.connection.productionNote")}
      </Alert>
    </div>
  )
}
