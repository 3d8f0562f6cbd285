import { Badge, Container, Heading, Tabs, Text } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { useTranslation } from "react-i18next"
import { ATTENTION_KINDS, type AttentionKind } from "../../../../rules/attention-kinds"
import { countKey } from "../../../lib/format"
import type { AttentionCounts } from "../../../lib/refpay-api"
import { useAttentionCounts } from "../../../lib/refpay-queries"
import { AttentionList } from "./attention-list"

/** The payments a shop owner should act on, one tab per kind, each row linking to its order. */
export const AttentionSection = ({ several }: { several: boolean }) => {
  // Until the first answer (or if it fails) the tabs show "–".
  const counts = useAttentionCounts().data ?? null
  const [kind, setKind] = useState<AttentionKind | null>(null)
  // The first list with rows, chosen once: a list emptied by a refund stays on screen rather than jumping away.
  useEffect(() => {
    if (kind === null && counts) setKind(ATTENTION_KINDS.find((k) => counts[k] > 0) ?? "expiring")
  }, [counts, kind])
  const active = kind ?? "expiring"

  return (
    <Container className="divide-y p-0" data-testid="refpay-attention">
      <AttentionSummary counts={counts} />
      <Tabs value={active} onValueChange={(value) => setKind(value as AttentionKind)}>
        <div className="px-6 py-3">
          <Tabs.List className="flex-wrap">
            {ATTENTION_KINDS.map((k) => (
              <AttentionTab key={k} kind={k} count={counts?.[k] ?? null} />
            ))}
          </Tabs.List>
        </div>
        {ATTENTION_KINDS.map((k) => (
          <Tabs.Content key={k} value={k}>
            {k === active && kind !== null && <AttentionList kind={k} several={several} />}
          </Tabs.Content>
        ))}
      </Tabs>
    </Container>
  )
}

const AttentionSummary = ({ counts }: { counts: AttentionCounts | null }) => {
  const { t } = useTranslation()
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : null
  return (
    <div className="flex items-center justify-between px-6 py-4">
      <div>
        <Heading level="h2">{t("refpay.attention.heading")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {total === null
            ? t("refpay.common.loading")
            : total === 0
              ? t("refpay.attention.nothing")
              : t(countKey("refpay.attention.total", total), { count: total })}
        </Text>
      </div>
    </div>
  )
}

const AttentionTab = ({ kind, count }: { kind: AttentionKind; count: number | null }) => {
  const { t } = useTranslation()
  return (
    <Tabs.Trigger value={kind} data-testid={`refpay-attention-tab-${kind}`}>
      {t(`refpay.attention.kinds.${kind}.label`)}
      <Badge
        size="2xsmall"
        className="ml-2"
        color={(count ?? 0) > 0 ? (kind === "expiring" ? "orange" : "red") : "grey"}
        data-testid={`refpay-attention-count-${kind}`}
      >
        {count ?? "–"}
      </Badge>
    </Tabs.Trigger>
  )
}
