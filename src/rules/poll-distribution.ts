/** REFPAY_POLL_SPREAD: where a poll tick's checks run. */
export type PollSpreadSetting = "auto" | "on" | "off"

/**
 * Whether a tick hands its due checks to the event bus, page by page, instead of checking them itself. Handing them
 * over spreads them across the processes only when the event bus is shared by them (Medusa's Redis event bus);
 * over the local one it would only delay them, so `auto` spreads on a shared bus alone.
 */
export function spreadsPollChecks(setting: PollSpreadSetting, sharedEventBus: boolean): boolean {
  const table = { on: true, off: false, auto: sharedEventBus } satisfies Record<PollSpreadSetting, boolean>
  return table[setting]
}

/** The event bus module a shop configures, by what it resolves: Medusa's Redis event bus is shared by its processes. */
export function isSharedEventBus(resolve: string | undefined): boolean {
  return /(^|\/)event-bus-redis$/.test(resolve ?? "")
}
