import { useTranslation } from "react-i18next"
import type { RefpaySettingsView } from "../../../../api/admin/refpay/settings/settings-view"
import { Group, Row, Value } from "./setting-rows"

/** Which platform the shop talks to, and through which addresses and paths. */
export const PlatformGroup = ({ settings }: { settings: RefpaySettingsView }) => {
  const { t } = useTranslation()
  const { urls, variables: v } = settings
  const row = (key: string) => t(`refpay.configuration.rows.${key}`)
  return (
    <Group title={t("refpay.configuration.groups.platform")}>
      <Row label={row("environment")} variable={v.environment} testId="refpay-config-environment">
        <Value>{settings.environment}</Value>
      </Row>
      <Row label={row("tokenInterface")} variable={v.tokenInterface}>
        <Value>{t(`refpay.configuration.values.${settings.token_interface === "t1" ? "t1" : "t2"}`)}</Value>
      </Row>
      {urls.auth_url !== null && (
        <Row label={row("authUrl")} variable={v.authUrl}>
          <Value mono>{urls.auth_url}</Value>
        </Row>
      )}
      {urls.backoffice_url !== null && (
        <Row label={row("backofficeUrl")} variable={v.backofficeUrl}>
          <Value mono>{urls.backoffice_url}</Value>
        </Row>
      )}
      <Row label={row("paymentsUrl")} variable={v.paymentsUrl} testId="refpay-config-payments-url">
        <Value mono>{urls.payments_url}</Value>
      </Row>
      <Row label={row("paymentInfoPath")} variable={v.paymentInfoPath}>
        <Value mono>{settings.paths.payment_info_path}</Value>
      </Row>
      <Row label={row("cancelPath")} variable={v.cancelPath}>
        <Value mono>{settings.paths.cancel_path}</Value>
      </Row>
      {settings.t2_authorization_form && (
        <Row label={row("t2AuthorizationForm")} variable={v.t2AuthorizationForm}>
          <Value>
            {t(`refpay.configuration.values.${settings.t2_authorization_form === "bearer" ? "bearer" : "tokenAlone"}`)}
          </Value>
        </Row>
      )}
      {urls.sandbox_hosts.length > 0 && (
        <Row label={row("sandboxHosts")} variable={v.sandboxHosts}>
          <Value mono>{urls.sandbox_hosts.join(", ")}</Value>
        </Row>
      )}
    </Group>
  )
}
