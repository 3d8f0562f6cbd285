"use client"
import { useEffect, useRef, useState } from "react"
import type { RefpayTexts } from "./texts.js"

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    // No clipboard API (plain http, older browser, no permission): the old select-and-copy way.
    const area = document.createElement("textarea")
    area.value = text
    area.setAttribute("readonly", "")
    area.style.position = "fixed"
    area.style.opacity = "0"
    document.body.append(area)
    area.select()
    let copied = false
    try {
      copied = document.execCommand("copy")
    } catch {
      copied = false
    }
    area.remove()
    return copied
  }
}

/** "Copiar", named for what it copies ("Copiar referência") so a screen reader tells the buttons apart. */
export function CopyButton({
  value,
  what,
  texts,
  testId,
}: {
  value: string
  what: string
  texts: RefpayTexts
  testId: string
}) {
  const [label, setLabel] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), [])
  const name = texts.copy(what)
  return (
    <button
      type="button"
      className="refpay-copy"
      data-testid={testId}
      aria-label={label ? `${name}: ${label}` : name}
      onClick={async () => {
        setLabel((await copyText(value)) ? texts.copied : texts.copyByHand)
        if (timer.current) clearTimeout(timer.current)
        timer.current = setTimeout(() => setLabel(null), 2000)
      }}
    >
      {label ?? name.split(" ")[0]}
    </button>
  )
}
