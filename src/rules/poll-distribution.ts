/** REFPAY_POLL_SPREAD: where a poll run's checks are made. */
export type PollDistributionSetting = "auto" | "on" | "off"

/**
 * Whether a run hands its due checks to the event bus, page by page, instead of checking them itself. Handing them
 * over distributes them across the processes only when the event bus is shared by them (Medusa's Redis event bus);
 * over the local one it would only delay them, so `auto` distributes on a shared bus alone.
 */
export function distributesPollChecks(setting: PollDistributionSetting, sharedEventBus: boolean): boolean {
  const table = { on: true, off: false, auto: sharedEventBus } satisfies Record<PollDistributionSetting, boolean>
  return table[setting]
}

/** The event bus module a shop configures, by what it resolves: Medusa's Redis event bus is shared by its processes. */
export function isSharedEventBus(resolve: string | undefined): boolean {
  return /(^|\/)event-bus-redis$/.test(resolve ?? "")
}
