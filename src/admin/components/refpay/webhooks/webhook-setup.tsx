import { Alert } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { useFormat } from "../../../lib/format"
import type { WebhooksView } from "../../../lib/refpay-api"
import { sayWebhookWarning } from "../../../lib/server-texts"
import { TestEvent } from "./test-event"
import { WebhookAuthentication } from "./webhook-authentication"
import { WebhookSummary } from "./webhook-summary"
import { WebhookUrl } from "./webhook-url"

/** What the shop owner sets up on the platform, what is wrong with it (the server's warnings), and how it goes. */
export const WebhookSetup = ({ view, providerId }: { view: WebhooksView; providerId: string }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  return (
    <div className="flex flex-col gap-y-4 px-6 py-4">
      {view.warnings.map((warning) => (
        <Alert
          key={warning.code}
          variant={warning.level === "error" ? "error" : "warning"}
          data-testid={`refpay-webhook-warning-${warning.code}`}
        >
          {sayWebhookWarning(t, dateTime, warning)}
        </Alert>
      ))}
      <WebhookUrl view={view} />
      <WebhookAuthentication authentication={view.authentication} />
      <WebhookSummary view={view} />
      {view.test_event_available && <TestEvent providerId={providerId} />}
    </div>
  )
}
