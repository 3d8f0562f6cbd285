import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { MedusaSuiteOptions } from "@medusajs/test-utils/dist/medusa-test-runner"
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../sandbox/src"
import { createAdminAndLogin } from "./fixtures/admin"
import { installRestoreGate } from "./fixtures/database-restore"
import { leaveMigratedTemplate } from "./fixtures/migrated-database"
import { sandboxControl, type SandboxControl } from "./fixtures/sandbox-control"
import { seedRefpayStore, type SeededStore } from "./fixtures/store"
import { recordSuiteCpu } from "./fixtures/suite-cpu"
import { quietBeforeShutdown, requestsSettled, trackConnections, watchTeardown } from "./fixtures/teardown"

/** The other sandboxes a suite starts (another seller account's): quieted and closed with the harness's own. */
const accountSandboxes = new Set<RunningSandbox>()

/** Puts a sandbox the suite started under the harness's care: reset after each test, closed before Medusa stops. */
export function quietWithSuite(sandbox: RunningSandbox): void {
  accountSandboxes.add(sandbox)
}

/** Webhook secret the suites share with the sandbox: obviously fake. */
export const TEST_WEBHOOK_SECRET = "fake-webhook-secret-for-tests"

export interface RefpaySuiteContext extends MedusaSuiteOptions {
  sandbox: () => RunningSandbox
  store: () => SeededStore
  adminHeaders: () => { headers: { authorization: string } }
  storeHeaders: () => { headers: { "x-publishable-api-key": string } }
  /** Calls a sandbox control (`/__sandbox/...`) and returns its JSON. */
  control: SandboxControl
}

/**
 * A Medusa app booted from this repository (the plugin's provider, routes, subscribers and jobs from source) on
 * the test PostgreSQL, talking to a real sandbox over loopback. The sandbox starts before Medusa so the provider
 * reads its URLs from the REFPAY_* variables, exactly as a shop configures it. The store is seeded once and
 * restored before every test by the runner, but in the describe blocks that keep it (`keepDatabaseBetweenTests`,
 * fixtures/database-restore.ts); the sandbox is reset before every test.
 */
export function refpayIntegrationSuite(
  name: string,
  body: (context: RefpaySuiteContext) => void,
  options: { env?: Record<string, string>; sandbox?: Partial<SandboxOptions> } = {}
): void {
  let sandbox: RunningSandbox | undefined
  let store: SeededStore | undefined
  let admin: { headers: { authorization: string } } | undefined
  let stopTeardownWatch: (() => void) | undefined

  installRestoreGate()
  describe(name, () => {
    recordSuiteCpu(name)

    beforeAll(async () => {
      sandbox = await startSandbox({
        port: 0,
        webhookSecret: TEST_WEBHOOK_SECRET,
        webhookBackoffMs: 100,
        ...options.sandbox,
      })
      Object.assign(process.env, {
        REFPAY_ENVIRONMENT: "sandbox",
        REFPAY_TOKEN_INTERFACE: "t1",
        REFPAY_AUTH_URL: sandbox.authUrl,
        REFPAY_BACKOFFICE_URL: sandbox.backofficeUrl,
        REFPAY_PAYMENTS_URL: sandbox.paymentsUrl,
        REFPAY_CLIENT_ID: "sandbox-client-id",
        REFPAY_CLIENT_SECRET: "sandbox-client-secret",
        REFPAY_CHANNEL: "sandbox-channel",
        REFPAY_SCOPE: "payments",
        REFPAY_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        // Keep failing tests quick: one retry, short timeouts.
        REFPAY_MAX_RETRIES: "1",
        REFPAY_REQUEST_TIMEOUT_MS: "3000",
        // The plugin's webhook route answers once the sync has run, however busy the machine: the suites assert what
        // it answers. The shorter default (an answer while the sync goes on) is tested by an account of its own.
        REFPAY_WEBHOOK_ANSWER_WITHIN_MS: "30000",
        ...options.env,
      })
    })

    afterAll(async () => {
      stopTeardownWatch?.()
      await sandbox?.close()
    })

    medusaIntegrationTestRunner({
      inApp: true,
      env: {},
      // The runner's own hooks (restore before each test, shut down after all) are declared before `testSuite` runs,
      // so hooks that must come before theirs live in a describe of their own: after each test, and before Medusa
      // shuts down, the sandboxes are quieted so no webhook of a finished test reaches the app while it restores its
      // database or stops (a delivery arriving mid-shutdown can keep Medusa's HTTP server from closing); after each
      // test, the requests still open are waited for too, so none runs while the database is restored.
      testSuite: (medusa) =>
        describe("", () => {
          afterEach(async () => {
            for (const running of [sandbox!, ...accountSandboxes]) running.reset()
            await requestsSettled()
          })

          afterAll(async () => {
            await Promise.all([sandbox, ...accountSandboxes].map((running) => running?.close()))
            const container = medusa.getContainer()
            await quietBeforeShutdown(container, medusa.utils.waitWorkflowExecutions)
            stopTeardownWatch = watchTeardown(container, medusa.dbConfig.dbName)
          })

          beforeAll(async () => {
            trackConnections(medusa.getContainer())
            await leaveMigratedTemplate(medusa.dbConfig.dbName)
            store = await seedRefpayStore(medusa.getContainer())
            admin = await createAdminAndLogin(medusa.getContainer(), medusa.api)
          })

          beforeEach(() => sandbox!.reset())

          const control = sandboxControl(() => sandbox!.url)

          body({
            ...medusa,
            sandbox: () => sandbox!,
            store: () => store!,
            adminHeaders: () => admin!,
            storeHeaders: () => ({ headers: { "x-publishable-api-key": store!.publishableKey } }),
            control,
          })
        }),
    })
  })
}
