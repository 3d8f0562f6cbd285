import { useCallback, useEffect, useState } from "react"
import type { RefpayPaymentView } from "./types.js"

/** How often to ask the shop while a reference is awaiting payment, and after an error or past its deadline. */
export const REFPAY_POLL_MS = 5000
export const REFPAY_RETRY_MS = 15000

/**
 * When to ask about a reference again: soon while it can be paid, slower once past its deadline (the shop may still
 * renew it), never once it is paid, cancelled or failed.
 */
export function pollDelay(refpay: RefpayPaymentView | null | undefined): number | null {
  if (refpay?.status !== "awaiting") return null
  return refpay.expired ? REFPAY_RETRY_MS : REFPAY_POLL_MS
}

/** The shortest of the delays, or null when nothing needs another look. */
export function soonest(delays: (number | null)[]): number | null {
  const pending = delays.filter((delay): delay is number => delay !== null)
  return pending.length ? Math.min(...pending) : null
}

/**
 * Calls `load` now, gives its result to `show`, and calls again after the delay `show` answers (null: stop). Starts
 * over when `load` or `show` change or when the returned function is called; stops when the component unmounts.
 */
export function usePolling<T>(load: () => Promise<T>, show: (result: T) => number | null): () => void {
  const [round, setRound] = useState(0)
  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      const result = await load()
      if (stopped) return
      const delay = show(result)
      if (delay !== null) timer = setTimeout(poll, delay)
    }
    void poll()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [load, show, round])
  return useCallback(() => setRound((n) => n + 1), [])
}
