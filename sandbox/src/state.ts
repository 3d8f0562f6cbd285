import { SandboxClock } from "./clock"
import { CredentialStore } from "./credentials"
import { FaultStore } from "./faults"
import { IdempotencyStore } from "./idempotency"
import { JwtSigner } from "./jwt"
import { PaymentLifecycle } from "./lifecycle"
import type { ResolvedOptions } from "./options"
import { PaymentStore } from "./payment-store"
import { ReferenceIssuer } from "./references"
import { RequestLog } from "./request-log"
import { TimerGroup } from "./timers"
import { TokenService } from "./tokens"
import { WebhookDispatcher } from "./webhooks"

/** Everything one running sandbox holds. reset() returns it to its start-up state; close() stops its timers. */
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

  constructor(readonly options: ResolvedOptions) {
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
      },
      this.clock,
      this.log,
    )
    this.lifecycle = new PaymentLifecycle(this.clock, this.payments, this.references, this.webhooks, {
      expiryDays: options.expiryDays,
      expiredStatus: options.expiredStatus,
    })
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
  }

  close(): void {
    this.webhooks.close()
    this.requestTimers.clear()
  }
}
