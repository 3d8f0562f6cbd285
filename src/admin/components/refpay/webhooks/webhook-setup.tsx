import { Alert } from "@medusajs/ui"
import type { WebhooksView } from "../../../lib/refpay-api"
import { TestEvent } from "./test-event"
import { WebhookAuthentication } from "./webhook-authentication"
import { WebhookSummary } from "./webhook-summary"
import { WebhookUrl } from "./webhook-url"

/** What the shop owner sets up on the platform, what is wrong with it (the server's warnings), and how it goes. */
export const WebhookSetup = ({ view, providerId }: { view: WebhooksView; providerId: string }) => (
  <div className="flex flex-col gap-y-4 px-6 py-4">
    {view.warnings.map((warning) => (
      <Alert
        key={warning.code}
        variant={warning.level === "error" ? "error" : "warning"}
        data-testid={`refpay-webhook-warning-${warning.code}`}
      >
        {warning.message}
      </Alert>
    ))}
    <WebhookUrl view={view} />
    <WebhookAuthentication authentication={view.authentication} />
    <WebhookSummary view={view} />
    {view.test_event_available && <TestEvent providerId={providerId} />}
  </div>
)
