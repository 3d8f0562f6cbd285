"use client"
import type { ReactNode } from "react"
import { CopyButton } from "./copy-button.js"
import { formatRefpayDeadline } from "./format.js"
import type { RefpayLocale, RefpayTexts } from "./texts.js"
import type { RefpayPaymentView } from "./types.js"

function Field(props: { label: string; value: string; testId: string; texts: RefpayTexts; children?: ReactNode }) {
  return (
    <div className="refpay-field">
      <div>
        <p className="refpay-label">{props.label}</p>
        {/* Entity and reference exactly as the shop returned them: text, never a number, never regrouped. */}
        <p className="refpay-value" data-testid={props.testId}>
          {props.children ?? props.value}
        </p>
      </div>
      <CopyButton value={props.value} what={props.label} texts={props.texts} testId={`${props.testId}-copy`} />
    </div>
  )
}

export function refpayStatusLabel(refpay: RefpayPaymentView, texts: RefpayTexts): string {
  if (refpay.expired && refpay.status === "awaiting") return texts.expired
  return texts.status[refpay.status] ?? refpay.status
}

function statusTone(refpay: RefpayPaymentView): "waiting" | "paid" | "problem" {
  if (refpay.status === "paid") return "paid"
  if (refpay.status === "awaiting" && !refpay.expired) return "waiting"
  return "problem"
}

/**
 * A reference's Entidade, Referência, Montante and Data limite, each with a copy button, its status (a live region, so
 * a screen reader hears it turn "Pago") and, while it can be paid, how to pay it. `testIdPrefix` keeps two references
 * on one page apart (the checkout's and an outstanding amount's).
 */
export function RefpayReferenceDetails({
  refpay,
  texts,
  locale = "pt",
  testIdPrefix = "refpay",
}: {
  refpay: RefpayPaymentView
  texts: RefpayTexts
  locale?: RefpayLocale
  testIdPrefix?: string
}) {
  const deadline = formatRefpayDeadline(refpay.expires_at, locale)
  return (
    <>
      <div className="refpay-fields">
        <Field label={texts.entity} value={refpay.entity} testId={`${testIdPrefix}-entity`} texts={texts} />
        <Field label={texts.reference} value={refpay.reference} testId={`${testIdPrefix}-reference`} texts={texts} />
        <Field label={texts.amount} value={refpay.amount_display} testId={`${testIdPrefix}-amount`} texts={texts} />
        <Field label={texts.expiry} value={deadline} testId={`${testIdPrefix}-expiry`} texts={texts}>
          <time dateTime={refpay.expires_at} title={refpay.expires_at}>
            {deadline}
          </time>
        </Field>
      </div>
      <p
        className="refpay-status"
        data-tone={statusTone(refpay)}
        data-testid={`${testIdPrefix}-status`}
        data-status={refpay.status}
        role="status"
        aria-live="polite"
      >
        {texts.statusPrefix}: {refpayStatusLabel(refpay, texts)}
      </p>
      {refpay.status === "awaiting" && !refpay.expired && <p className="refpay-hint">{texts.hint}</p>}
    </>
  )
}
