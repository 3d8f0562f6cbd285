import { shopWideSetting } from "../../config"

/**
 * The webhook syncs of one process, in arrival order: at most `limit` run at once, and while a delivery is still being
 * recorded no further sync starts beyond the first, so every delivery of a burst is recorded and answered before the
 * syncs take the machine (the industry's practice: answer first, then process). An answered delivery's sync waits
 * here; if the process dies first, the event is recorded and the poll job processes it (retry-webhook-events.ts).
 */
export class WebhookSyncQueue {
  private running = 0
  private recording = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly limit: number) {}

  /** Runs the recording of a delivery (everything before its answer); syncs beyond the first wait for it. */
  async recordingDelivery<T>(record: () => Promise<T>): Promise<T> {
    this.recording++
    try {
      return await record()
    } finally {
      this.recording--
      this.startWaiting()
    }
  }

  /** Queues a sync; settles as it does. */
  run<T>(sync: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => {
        this.running++
        sync()
          .then(resolve, reject)
          .finally(() => {
            this.running--
            this.startWaiting()
          })
      })
      this.startWaiting()
    })
  }

  /** Syncs queued and not started yet. */
  get queued(): number {
    return this.waiting.length
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.running < this.limit && (this.running === 0 || this.recording === 0)) {
      this.waiting.shift()!()
    }
  }
}

let processQueue: WebhookSyncQueue | undefined

/**
 * The process's queue (webhook routes of every account share the machine, so they share the queue), made on
 * first use with REFPAY_WEBHOOK_SYNCS_AT_ONCE. Many syncs must overlap to keep the CPU busy, since a sync mostly
 * waits on the database and the platform: `npm run bench -- --only=webhooks` (2 cores) captured 100 payments paid at
 * once in 23.4 s with 4 at once, 20.5 s with 8 and 12.6 s with 32; unbounded, a burst of 500 ran 500 syncs at once
 * and left no time to answer the deliveries still arriving (docs/benchmarks.md).
 */
export function webhookSyncQueue(): WebhookSyncQueue {
  processQueue ??= new WebhookSyncQueue(shopWideSetting("webhookSyncsAtOnce"))
  return processQueue
}
