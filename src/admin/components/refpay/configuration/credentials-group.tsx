import { Badge } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { RefpaySettingsView } from "../../../../api/admin/refpay/settings/settings-view"
import { Group, Row } from "./setting-rows"

type Credential = keyof RefpaySettingsView["credentials"]

/** Each credential with the variable that sets it: the row's label key and the variable's key. */
const CREDENTIALS: [Credential, string, keyof RefpaySettingsView["variables"]][] = [
  ["client_id", "clientId", "clientId"],
  ["client_secret", "clientSecret", "clientSecret"],
  ["channel", "channel", "channel"],
  ["scope", "scope", "scope"],
  ["webhook_secret", "webhookSecret", "webhookSecret"],
]

/** Whether each credential is set, never its value; a missing one the token interface needs is red. */
export const CredentialsGroup = ({ settings }: { settings: RefpaySettingsView }) => {
  const { t } = useTranslation()
  return (
    <Group title={t("refpay.configuration.groups.credentials")} note={t("refpay.configuration.groups.credentialsNote")}>
      {CREDENTIALS.map(([key, label, variable]) => (
        <Row
          key={key}
          label={t(`refpay.configuration.rows.${label}`)}
          variable={settings.variables[variable]}
          testId={`refpay-credential-${key}`}
        >
          <CredentialBadge state={settings.credentials[key]} required={settings.required_credentials.includes(key)} />
        </Row>
      ))}
    </Group>
  )
}

const CredentialBadge = ({ state, required }: { state: "set" | "missing"; required: boolean }) => {
  const { t } = useTranslation()
  if (state === "set") {
    return (
      <Badge size="2xsmall" color="green" data-state="set">
        {t("refpay.configuration.credential.set")}
      </Badge>
    )
  }
  return (
    <Badge size="2xsmall" color={required ? "red" : "grey"} data-state="missing">
      {t(required ? "refpay.configuration.credential.missingRequired" : "refpay.configuration.credential.missing")}
    </Badge>
  )
}
