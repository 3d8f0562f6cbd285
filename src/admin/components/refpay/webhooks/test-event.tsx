import { Alert, Button, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { useFormat } from "../../../lib/format"
import { useRouteName } from "./route-name"
import { TEST_WAIT_MS, useSandboxTestEvent, type TestEventState } from "./use-sandbox-test-event"

/** Sandbox only: a throwaway payment whose PENDING_TRANSACTIONS webhook the owner sees arrive. */
export const TestEvent = ({ providerId }: { providerId: string }) => {
  const { t } = useTranslation()
  const { test, send } = useSandboxTestEvent(providerId)
  // The page's tests read "failed" for a test that timed out, as they always have.
  const shownState = test.state === "timed_out" ? "failed" : test.state
  return (
    <div
      className="flex flex-col gap-y-2 rounded-md border border-dashed px-4 py-3"
      data-testid="refpay-test-event"
      data-state={shownState}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Text size="small" className="text-ui-fg-subtle">
          {t("refpay.webhooks.testEvent.intro")}
        </Text>
        <Button
          size="small"
          variant="secondary"
          onClick={send}
          isLoading={test.state === "sending" || test.state === "waiting"}
          data-testid="refpay-send-test-event"
        >
          {t("refpay.webhooks.testEvent.send")}
        </Button>
      </div>
      <TestEventStatus test={test} />
    </div>
  )
}

const TestEventStatus = ({ test }: { test: TestEventState }) => {
  const { t } = useTranslation()
  const { dateTime } = useFormat()
  const routeName = useRouteName()
  switch (test.state) {
    case "waiting":
      return (
        <Text size="small" data-testid="refpay-test-event-status">
          {t("refpay.webhooks.testEvent.waiting", { message: test.message, summary: test.summary ?? "" })}
        </Text>
      )
    case "arrived":
      return (
        <Alert variant="success" data-testid="refpay-test-event-status">
          {t("refpay.webhooks.testEvent.arrived", {
            when: dateTime(test.delivery.received_at),
            event: test.delivery.event_type,
            route: routeName(test.delivery.route),
          })}
        </Alert>
      )
    case "timed_out":
    case "failed":
      return (
        <Alert variant="error" data-testid="refpay-test-event-status">
          {test.state === "failed"
            ? (test.message ?? t("refpay.webhooks.testEvent.couldNotSend"))
            : t("refpay.webhooks.testEvent.noDelivery", {
                seconds: TEST_WAIT_MS / 1000,
                summary: test.summary ?? "",
              }).trim()}
        </Alert>
      )
    default:
      return null
  }
}
