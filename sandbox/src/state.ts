import path from "node:path"
import { SandboxClock } from "./clock"
import { CredentialStore } from "./credentials"
import { FaultStore } from "./faults"
import { IdempotencyStore } from "./idempotency"
import { JwtSigner } from "./jwt"
import { PaymentLifecycle } from "./lifecycle"
import type { ResolvedOptions, SandboxOptions } from "./options"
import { PaymentStore } from "./payment-store"
import { loadState, StateKeeper, type SavedState, type SavedWebhooks, type StateSnapshot } from "./persistence"
import { ReferenceIssuer } from "./references"
import { RequestLog } from "./request-log"
import { TimerGroup } from "./timers"
import { TokenService } from "./tokens"
import { WebhookDispatcher, type WebhookConfig } from "./webhooks"

/** Default longest wait between a change and its save to the state file. */
const STATE_SAVE_DELAY_MS = 100

/**
 * Everything one running sandbox holds. reset() returns it to its start-up state; close() stops its timers.
 * With a state file, the kept state is loaded here and saved after every change (`changed()`).
 */
export class SandboxState {
  readonly clock = new SandboxClock()
  readonly credentials: CredentialStore
  readonly sellerIds: string[]
  readonly tokens: TokenService
  readonly payments = new PaymentStore()
  readonly idempotency = new IdempotencyStore()
  readonly references = new ReferenceIssuer()
  readonly webhooks: WebhookDispatcher
  readonly lifecycle: PaymentLifecycle
  readonly faults = new FaultStore()
  readonly requests = new RequestLog()
  /** Injected response delays; only close() cancels them (reset must not strand a request in flight). */
  readonly requestTimers = new TimerGroup()
  readonly log: (line: string) => void
  /** Present with `stateFile`. */
  readonly keeper?: StateKeeper
  /** What the state file held at start, for the start-up message. */
  readonly loaded?: { payments: number }

  /** `given` are the options as passed, before defaults: what was asked for explicitly wins over the state file. */
  constructor(
    readonly options: ResolvedOptions,
    given: Partial<SandboxOptions> = options
  ) {
    this.log = options.logger ?? (() => undefined)
    this.credentials = new CredentialStore(options.credentials, { sellerId: options.sellerId, entity: options.entity })
    this.sellerIds = this.credentials.sellerIds()
    this.tokens = new TokenService(new JwtSigner(), this.clock, this.credentials, options.tokenTtlSeconds)
    this.webhooks = new WebhookDispatcher(
      {
        url: options.webhookUrl,
        secret: options.webhookSecret,
        auth: options.webhookAuth,
        retries: options.webhookRetries,
        backoffMs: options.webhookBackoffMs,
        timeoutMs: options.webhookTimeoutMs,
      },
      this.clock,
      this.log
    )
    this.lifecycle = new PaymentLifecycle(this.clock, this.payments, this.references, this.webhooks, {
      expiryDays: options.expiryDays,
      expiredStatus: options.expiredStatus,
    })
    if (options.stateFile !== undefined) {
      const file = path.resolve(options.stateFile)
      const saved = loadState(file)
      if (saved) {
        this.restore(saved, given)
        this.loaded = { payments: saved.payments.length }
      }
      this.keeper = new StateKeeper(
        file,
        () => this.snapshot(),
        options.stateSaveDelayMs ?? STATE_SAVE_DELAY_MS,
        this.log
      )
      // The start state counts as written: only a change worth keeping writes the file (a token request does not).
      this.keeper.remember(this.snapshot())
    }
  }

  /** A request went through (or reset() ran): save the state file soon, if there is one and it changed. */
  changed(): void {
    this.keeper?.changed()
  }

  snapshot(): StateSnapshot {
    return {
      clock_offset_ms: this.clock.offset,
      webhooks: this.webhooks.configView() as SavedWebhooks,
      payments: this.payments.all(),
      idempotency: this.idempotency.list(),
      references: this.references.issuedReferences(),
    }
  }

  /**
   * Payments, idempotency records and the clock come back as they were. The webhook set-up comes back too, except
   * what the start-up options name (the demo passes a new URL on every start); the secret is never in the file, so
   * it is the start-up one, and a sandbox whose secret had been set through the controls says so.
   */
  private restore(saved: SavedState, given: Partial<SandboxOptions>): void {
    this.clock.advance(saved.clock_offset_ms)
    for (const payment of saved.payments) this.payments.add(payment)
    this.references.restore(saved.references)
    this.idempotency.restore(saved.idempotency)
    const w = saved.webhooks
    const change: Partial<WebhookConfig> = {}
    if (given.webhookUrl === undefined) change.url = w.url ?? undefined
    if (given.webhookAuth === undefined) change.auth = w.auth
    if (given.webhookRetries === undefined) change.retries = w.retries
    if (given.webhookBackoffMs === undefined) change.backoffMs = w.backoff_ms
    this.webhooks.configure(change)
    if (w.secret_set && this.options.webhookSecret === undefined) {
      this.log(
        "refpay-sandbox: a webhook secret was set before the restart; secrets are not kept in the state file, so webhooks " +
          "now go without one (pass --webhook-secret or REFPAY_SANDBOX_WEBHOOK_SECRET)"
      )
    }
  }

  reset(): void {
    this.clock.reset()
    this.tokens.reset()
    this.payments.reset()
    this.idempotency.reset()
    this.references.reset()
    this.webhooks.reset()
    this.faults.clear()
    this.requests.clear()
    this.changed()
  }

  /** Stops timers, deliveries and held requests, and saves the state file one last time. */
  close(): void {
    this.keeper?.close()
    this.webhooks.close()
    this.requestTimers.clear()
    this.faults.close()
  }
}
