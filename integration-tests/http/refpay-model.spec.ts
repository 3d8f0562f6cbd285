import fc from "fast-check"
import {
  AdminRenewCommand,
  AdminSyncCommand,
  AmountMismatchCommand,
  CancelRacingPayCommand,
  checkout,
  CheckoutCommand,
  EditOrderCommand,
  finish,
  ForgetCommand,
  FulfilCommand,
  type Model,
  observe,
  PayCommand,
  PLATFORM_FAULTS,
  type PlatformFault,
  PlatformCancelCommand,
  PollRunCommand,
  type Real,
  RedeliverCommand,
  RequestDuringRenewalCommand,
  RequestOnCheckoutCollectionCommand,
  RequestOutstandingCommand,
  RefundCommand,
  RefundLatePaymentCommand,
  OverlappingRefundsCommand,
  MalformedWebhookCommand,
  StoreSessionOnPlacedOrderCommand,
  sandbox,
  setMaxOrders,
  ShopCancelCommand,
  WaitCommand,
  WEBHOOK_FAULTS,
  type WebhookFault,
} from "../fixtures/model-refpay"
import { refpayIntegrationSuite, TEST_WEBHOOK_SECRET } from "../harness"

/*
 * Model-based test of the REFPAY payment state machine: fast-check draws sequences of shopper, platform, shop,
 * poll-job and fault commands, runs them against the real Medusa app and the real sandbox, and after every step
 * checks the safety invariants on every reference of every order of the sequence (never captured unless the
 * platform is APPROVED and for its amount, at most one capture, never more refunded in Medusa than on the platform,
 * nothing moves backwards, no fulfilment while unpaid, never two payable references on one order, a command refused
 * with a 4xx changes nothing). At the end of a sequence (faults cleared, deliveries settled, one poll run with every
 * payment due) Medusa must agree with the platform: captured = approved amount, refunded = refunded, an order with no
 * payable or paid reference left is cancelled and a cancelled order has no payable reference.
 *
 * Commands: checkout (with creation faults), customer pays (latest or first reference, late settlement with force,
 * webhook and status-read faults), shop cancels (cancel/refund or status-read faults), shop cancels while the customer
 * pays, platform cancels / expires / moves its clock 8 days, full / partial / excessive refunds (cancel/refund faults),
 * the REFPAY page's refund of a payment received after cancellation, two refunds at once from two hands (Medusa's refund
 * route twice, or with the late-payment refund or the order's cancellation), a store request for a new session on a
 * placed order's collection, a storefront planting the plugin's bookkeeping in the session's data at checkout,
 * authentic webhook deliveries with retyped unused fields or without a payment id,
 * admin "check now", admin "issue a new reference", poll runs (now, due, past expiry), webhook redelivery, the
 * platform forgetting a payment, fulfilment attempts, an amount mismatch reported through both webhook routes, waits.
 *
 * Which sequences run (nothing here draws a new seed unless asked):
 *   (no variable)                                    CI: every seed of MODEL_SEEDS below, each for its own number of
 *                                                    sequences; each seed's count and time is printed
 *   REFPAY_MODEL_SEED=random [REFPAY_MODEL_RUNS=50] [REFPAY_MODEL_TIME_MS=1800000]   exploration: a seed drawn now and
 *                                                    printed first; 8 sequences and 170 s unless told (sequences
 *                                                    left when the time is spent pass untried, and are counted)
 *   REFPAY_MODEL_SEED=123 [REFPAY_MODEL_PATH=0:1:2] [REFPAY_MODEL_REPLAY_PATH=...]   one seed, e.g. replay a reported
 *                                                    failure (a listed seed takes its runs and steps from the list)
 *   REFPAY_MODEL_RUNS=20 REFPAY_MODEL_STEPS=15      sequences per seed / most commands per sequence (default: the
 *                                                    list's, or 8 of up to 30 for one seed); with no seed given they
 *                                                    apply to every listed seed
 *   REFPAY_MODEL_SHRINK_MS=600000                    time allowed for shrinking a failure (default 60 s)
 *   REFPAY_MODEL_TIME_MS=600000                      time allowed for the sequences themselves (default 170 s for one
 *                                                    seed or random; none for the list, whose sequences all run)
 *   REFPAY_MODEL_EXCLUDE=amountMismatchThroughBothRoutes   leave commands out, e.g. to look past a known failure
 *                                                    (a replay needs the same REFPAY_MODEL_EXCLUDE and STEPS)
 * A failure prints the seed, the shrunk command list, the failing sequence's trace and the replay command.
 */

/*
 * The seeds CI runs. WHEN A SEED FAILS (in CI, in a random run, anywhere), ADD IT HERE IN THE COMMIT THAT FIXES WHAT
 * IT FOUND, with its runs and steps and a line saying what it found; never drop a seed to make the suite pass.
 * A seed draws its sequences from the command table below as it is: adding, removing or reweighting a command changes
 * what every seed draws (the seeds from before such a change no longer replay their old sequences), so after such a
 * change check that the list still draws each command and the shapes named here (fc.sample with the same seed).
 * 9 sequences (about a minute); together they draw every command of the table, a planted checkout and the shapes
 * named below.
 */
const MODEL_SEEDS: { seed: number; runs: number; steps: number }[] = [
  // The refund defect fixed in 43f6609 (Medusa's refund of a payment received after its order was cancelled answered
  // 400 once the platform had refunded; 6 of 27 sequences failed, seed not recorded): its fix passed 40 sequences of
  // this seed (6d6cb49). Today: a forced pay, shopCancel, a second pay, a refund under a fault, malformed webhooks, a
  // renewal.
  { seed: -22314809, runs: 1, steps: 30 },
  // The 43f6609 fix's second check (30 sequences of up to 40 commands); today: cancels under faults, the platform
  // forgetting a payment, a store session swap on a placed order, a poll run, a cancellation racing the payment.
  { seed: -1193493684, runs: 1, steps: 30 },
  // Draws the shrunk form of the 43f6609 defect on the set-up order: shopCancel, pay(force, status read 5xx-all), a
  // poll run past expiry, refund(full).
  { seed: 3642, runs: 1, steps: 30 },
  // Draws the REFPAY page's late-payment refund after a cancellation and a forced payment, fulfilment attempts.
  { seed: 269, runs: 1, steps: 30 },
  // The platform's expiry and its clock moved 8 days, a planted checkout.
  { seed: 391, runs: 1, steps: 30 },
  // The platform cancelling, a refund overlapping the order's cancellation (597c430's two hands), a planted checkout.
  // Since the request commands joined the table (issue 40): a store request while a renewal's creation is held,
  // which found two payable references on one collection before the collection lock (2 of 2 runs).
  { seed: 1221, runs: 1, steps: 30 },
  // Issue 40: the shop cancels, a poll run past expiry, then the store's session route on the cancelled order's
  // collection, which deleted the cancelled reference's session before the route was refused for any reference.
  { seed: 85, runs: 1, steps: 30 },
  // Issue 40: the admin's "Request payment by REFPAY" while a renewal's creation is held, twice: two payable
  // references on one collection before the collection lock.
  { seed: 90, runs: 1, steps: 30 },
  // The platform cancelling a reference, then a request on the checkout collection of a cancelled order.
  { seed: 40, runs: 1, steps: 30 },
]

const int = (name: string, fallback: number) => {
  const value = process.env[name]
  return value === undefined || value === "" ? fallback : Number.parseInt(value, 10)
}

const given = (name: string) => (process.env[name] ?? "") !== ""

const SEED_ENV = (process.env.REFPAY_MODEL_SEED ?? "").trim()
/** What runs: the listed seeds, one seed drawn now (random), or one seed given. */
const MODE: "list" | "random" | "seed" =
  SEED_ENV === "" ? "list" : SEED_ENV.toLowerCase() === "random" ? "random" : "seed"
if (MODE === "seed" && !/^-?\d+$/.test(SEED_ENV))
  throw new Error(`REFPAY_MODEL_SEED must be an integer or "random", not ${JSON.stringify(SEED_ENV)}`)
const PATH = process.env.REFPAY_MODEL_PATH || undefined
const REPLAY_PATH = process.env.REFPAY_MODEL_REPLAY_PATH || undefined
if ((PATH || REPLAY_PATH) && MODE !== "seed")
  throw new Error("REFPAY_MODEL_PATH and REFPAY_MODEL_REPLAY_PATH replay one seed: give REFPAY_MODEL_SEED=<n> too")
const SHRINK_MS = int("REFPAY_MODEL_SHRINK_MS", 60_000)
const TIME_MS = int("REFPAY_MODEL_TIME_MS", MODE === "list" ? Number.POSITIVE_INFINITY : 170_000)

/** The seeds this run uses, each with its number of sequences and most commands per sequence. */
const RUN_SEEDS: { seed: number; runs: number; steps: number }[] = (() => {
  if (MODE === "list")
    return MODEL_SEEDS.map(({ seed, runs, steps }) => ({
      seed,
      runs: int("REFPAY_MODEL_RUNS", runs),
      steps: int("REFPAY_MODEL_STEPS", steps),
    }))
  // fast-check's own way of drawing a seed
  const seed = MODE === "random" ? (Date.now() ^ (Math.random() * 0x100000000)) | 0 : Number.parseInt(SEED_ENV, 10)
  const listed = MODEL_SEEDS.find((s) => s.seed === seed)
  return [
    { seed, runs: int("REFPAY_MODEL_RUNS", listed?.runs ?? 8), steps: int("REFPAY_MODEL_STEPS", listed?.steps ?? 30) },
  ]
})()
const TOTAL_RUNS = RUN_SEEDS.reduce((sum, s) => sum + s.runs, 0)
const MAX_STEPS = Math.max(...RUN_SEEDS.map((s) => s.steps))
const REQUEST_TIMEOUT_MS = 1_500

jest.setTimeout(
  Number.isFinite(TIME_MS)
    ? Math.max(10 * 60_000, TIME_MS + SHRINK_MS + 5 * 60_000)
    : Math.max(10 * 60_000, TOTAL_RUNS * 60_000 + SHRINK_MS)
)

/* ---------- what fast-check draws ---------- */

const order = fc.nat({ max: 2 })
const mostlyNone = <T extends string>(values: readonly T[]): fc.Arbitrary<T | "none"> =>
  fc.oneof({ arbitrary: fc.constant("none" as const), weight: 3 }, { arbitrary: fc.constantFrom(...values), weight: 2 })
const platformFault: fc.Arbitrary<PlatformFault> = mostlyNone(PLATFORM_FAULTS)
const webhookFault: fc.Arbitrary<WebhookFault> = mostlyNone(WEBHOOK_FAULTS)
/** Faults that matter on a status read (a GET has no work to lose). */
const statusFault: fc.Arbitrary<PlatformFault> = mostlyNone([
  "5xx",
  "5xx-all",
  "timeout",
  "timeout-all",
  "reset",
] as const)

const pay = fc
  .tuple(order, fc.constantFrom("latest" as const, "first" as const), fc.boolean(), webhookFault, statusFault)
  .map(([i, which, force, w, s]) => new PayCommand(i, which, force, w, s))
const checkoutCommand = fc.tuple(platformFault, fc.boolean()).map(([f, planted]) => new CheckoutCommand(f, planted))
const cancelCommand = fc
  .tuple(order, platformFault, fc.constantFrom("cancel" as const, "status" as const))
  .map(([i, f, on]) => new ShopCancelCommand(i, f, on))
const refundCommand = fc
  .tuple(order, fc.constantFrom("full" as const, "partial" as const, "over" as const), platformFault)
  .map(([i, k, f]) => new RefundCommand(i, k, f))

/** Each command with its name (the start of its printed form) and weight (repeated entries are drawn more often). */
const ALL_COMMANDS: [string, fc.Arbitrary<fc.AsyncCommand<Model, Real>>, number][] = [
  ["checkout", checkoutCommand, 2],
  ["pay", pay, 3],
  ["shopCancel", cancelCommand, 2],
  ["shopCancelRacingPay", order.map((i) => new CancelRacingPayCommand(i)), 1],
  [
    "platform",
    fc
      .tuple(order, fc.constantFrom("cancel" as const, "expire" as const, "clock" as const), webhookFault)
      .map(([i, how, w]) => new PlatformCancelCommand(i, how, w)),
    1,
  ],
  ["refund", refundCommand, 2],
  ["refundLatePayment", fc.tuple(order, platformFault).map(([i, f]) => new RefundLatePaymentCommand(i, f)), 1],
  [
    "overlappingRefunds",
    fc
      .tuple(order, fc.constantFrom("refund" as const, "lateRefund" as const, "cancelOrder" as const))
      .map(([i, second]) => new OverlappingRefundsCommand(i, second)),
    1,
  ],
  ["storeSessionOnPlacedOrder", order.map((i) => new StoreSessionOnPlacedOrderCommand(i)), 1],
  [
    "malformedWebhook",
    fc
      .tuple(order, fc.constantFrom("retyped" as const, "noPaymentId" as const))
      .map(([i, shape]) => new MalformedWebhookCommand(i, shape)),
    1,
  ],
  ["adminCheckNow", fc.tuple(order, statusFault).map(([i, f]) => new AdminSyncCommand(i, f)), 1],
  ["adminIssueNewReference", order.map((i) => new AdminRenewCommand(i)), 1],
  [
    "pollRun",
    fc
      .tuple(fc.constantFrom("now" as const, "due" as const, "pastExpiry" as const), order, statusFault)
      .map(([w, i, f]) => new PollRunCommand(w, i, f)),
    1,
  ],
  [
    "redeliverWebhook",
    fc.tuple(order, fc.constantFrom("first" as const, "last" as const)).map(([i, w]) => new RedeliverCommand(i, w)),
    1,
  ],
  ["platformForgets", order.map((i) => new ForgetCommand(i)), 1],
  ["tryToFulfil", order.map((i) => new FulfilCommand(i)), 1],
  [
    "editOrder",
    fc.tuple(order, fc.constantFrom(1 as const, -1 as const)).map(([i, d]) => new EditOrderCommand(i, d)),
    1,
  ],
  [
    "requestOutstanding",
    fc
      .tuple(order, fc.constantFrom("admin" as const, "store" as const))
      .map(([i, via]) => new RequestOutstandingCommand(i, via)),
    1,
  ],
  [
    "requestOnCheckoutCollection",
    fc
      .tuple(order, fc.constantFrom("admin" as const, "store" as const))
      .map(([i, via]) => new RequestOnCheckoutCollectionCommand(i, via)),
    1,
  ],
  [
    "requestDuringRenewal",
    fc
      .tuple(order, fc.constantFrom("admin" as const, "store" as const))
      .map(([i, via]) => new RequestDuringRenewalCommand(i, via)),
    1,
  ],
  ["amountMismatchThroughBothRoutes", order.map((i) => new AmountMismatchCommand(i)), 1],
  ["wait", fc.constantFrom(100, 700, 2_000).map((ms) => new WaitCommand(ms)), 1],
]
/**
 * REFPAY_MODEL_EXCLUDE=amountMismatchThroughBothRoutes,platformForgets leaves commands out (to look past a known
 * failure).
 */
const EXCLUDE = new Set(
  (process.env.REFPAY_MODEL_EXCLUDE ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
)
const commands = ALL_COMMANDS.filter(([name]) => !EXCLUDE.has(name)).flatMap(([, arb, weight]) =>
  Array.from({ length: weight }, () => arb)
)

refpayIntegrationSuite(
  "REFPAY payment state machine: model-based sequences against Medusa and the sandbox",
  (ctx) => {
    const what =
      MODE === "list"
        ? `${RUN_SEEDS.length} listed seeds`
        : MODE === "random"
          ? "a random seed"
          : `seed ${RUN_SEEDS[0]!.seed}`
    it(`keeps Medusa and the platform consistent over model sequences (${what}, ${TOTAL_RUNS} runs of up to ${MAX_STEPS} commands)`, async () => {
      setMaxOrders(3)
      const shopUrl = () => (ctx.api as any).defaults.baseURL as string
      const started = Date.now()
      let sequences = 0
      let skipped = 0
      let firstFailureAt = 0
      let lastFailure: { sequence: number; trace: string[]; error: string; commands: string } | undefined
      const budget = Number.isFinite(TIME_MS) ? `, ${Math.round(TIME_MS / 1000)} s for the sequences` : ""
      console.log(
        MODE === "random"
          ? `REFPAY model: random seed ${RUN_SEEDS[0]!.seed} (drawn now), ${TOTAL_RUNS} sequence(s) of up to ${MAX_STEPS} commands${budget}`
          : `REFPAY model: seeds ${RUN_SEEDS.map((s) => `${s.seed} (${s.runs} x ${s.steps})`).join(", ")}${budget}`
      )

      const property = (steps: number) =>
        fc.asyncProperty(fc.commands(commands, { maxCommands: steps, replayPath: REPLAY_PATH }), async (cmds) => {
          // Bounded time: once spent, remaining candidates pass untried (shrinking keeps the smallest failure so far).
          if (firstFailureAt ? Date.now() - firstFailureAt > SHRINK_MS : Date.now() - started > TIME_MS) {
            skipped++
            return true
          }
          const sequence = ++sequences
          const real: Real = {
            ctx,
            settings: { requestTimeoutMs: REQUEST_TIMEOUT_MS, attempts: 2, pollIntervalMinutes: 10 },
            sequence,
            step: 0,
            trace: [],
            medusaRouteAt: 0,
          }
          const model: Model = { orders: [] }
          const t0 = Date.now()
          try {
            await fc.asyncModelRun(async () => {
              // A fresh platform per sequence; the app (and its older orders, now pointing at forgotten payments) is
              // shared, so only this sequence's orders are checked.
              await sandbox(real, "POST", "/reset")
              await sandbox(real, "POST", "/webhooks/config", {
                url: `${shopUrl()}/hooks/refpay`,
                secret: TEST_WEBHOOK_SECRET,
              })
              const { order: first } = await checkout(real, model, "none")
              real.trace.push(`set-up: checkout #0 ${first.orderId} (${first.amountCents} cents)`)
              await observe(real, model, "set-up")
              return { model, real }
            }, cmds)
            await finish(real, model)
            console.log(
              `REFPAY model: sequence ${sequence} passed in ${Math.round((Date.now() - t0) / 1000)} s: ${String(cmds)}\n  ${real.trace.join("\n  ")}`
            )
            return true
          } catch (error) {
            if (!firstFailureAt) firstFailureAt = Date.now()
            const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
            lastFailure = { sequence, trace: [...real.trace], error: message, commands: String(cmds) }
            console.log(
              `REFPAY model: sequence ${sequence} FAILED in ${Math.round((Date.now() - t0) / 1000)} s: ${message}\n  ${real.trace.join("\n  ")}`
            )
            throw error
          } finally {
            await sandbox(real, "DELETE", "/faults").catch(() => undefined)
            await sandbox(real, "DELETE", "/webhooks/faults").catch(() => undefined)
          }
        })

      // One fc.check per seed, in the list's order; the first failing seed is reported and ends the test.
      for (const { seed, runs, steps } of RUN_SEEDS) {
        const seedStarted = Date.now()
        const [sequencesBefore, skippedBefore] = [sequences, skipped]
        const details = await fc.check(property(steps), {
          numRuns: runs,
          seed,
          path: PATH,
          verbose: fc.VerbosityLevel.Verbose,
          // The app is shared and the platform reset per sequence: no interrupting a sequence half-way.
          endOnFailure: SHRINK_MS <= 0,
        })
        const seedSkipped = skipped - skippedBefore
        console.log(
          `REFPAY model: seed ${details.seed}: ${sequences - sequencesBefore} sequences in ${Math.round((Date.now() - seedStarted) / 1000)} s` +
            `${seedSkipped ? ` (${seedSkipped} skipped for time)` : ""}${details.failed ? " FAILED" : ""}`
        )
        if (details.failed) {
          const extra = [
            given("REFPAY_MODEL_EXCLUDE") ? `REFPAY_MODEL_EXCLUDE=${process.env.REFPAY_MODEL_EXCLUDE}` : "",
          ]
            .filter(Boolean)
            .join(" ")
          const report = [
            `REFPAY model: FAILED. Replay with REFPAY_MODEL_SEED=${details.seed} REFPAY_MODEL_STEPS=${steps} REFPAY_MODEL_PATH=${details.counterexamplePath}` +
              `${extra ? ` ${extra}` : ""} (add REFPAY_MODEL_REPLAY_PATH from the replayPath below).` +
              (MODEL_SEEDS.some((s) => s.seed === details.seed)
                ? ""
                : ` Add seed ${details.seed} to MODEL_SEEDS with the fix.`),
            `Shrunk command list (${details.numShrinks} shrink(s)): ${details.counterexample ? String(details.counterexample[0]) : "?"}`,
            lastFailure
              ? `Last failing sequence ${lastFailure.sequence}: ${lastFailure.error}\n  ${lastFailure.trace.join("\n  ")}`
              : "",
          ].join("\n")
          console.log(report)
          throw new Error(`${report}\n\n${fc.defaultReportMessage(details)}`)
        }
      }
      const elapsed = Math.round((Date.now() - started) / 1000)
      console.log(
        `REFPAY model: ${sequences} sequence(s) run (${skipped} skipped for time) in ${elapsed} s; seed(s) ${RUN_SEEDS.map((s) => s.seed).join(", ")}`
      )
    })
  },
  { env: { REFPAY_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } }
)
