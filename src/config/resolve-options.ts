import { toCents } from "../rules/money"
import { optionVariables, withEnvironment } from "./environment-variables"
import { describeIssue, howToFix, RefpayOptionsError } from "./option-errors"
import { OPTION_FIELDS, OPTIONS_SCHEMA, type RefpayProviderOptions, type ResolvedRefpayOptions } from "./options-schema"
import { checkShopWideSettings } from "./shop-wide-settings"

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "")
  return host === "localhost" || host === "::1" || /^127\./.test(host) || host.endsWith(".localhost")
}

/** A host the sandbox environment may use: loopback, an explicitly listed host, or one named as a test host. */
function isSandboxHost(hostname: string, listed: string[]): boolean {
  return (
    isLoopback(hostname) ||
    listed.includes(hostname) ||
    /(^|[.-])(sandbox|homolog|hml|uat|staging)([.-]|$)/i.test(hostname)
  )
}

const { environment: ENVIRONMENT, sandboxHosts: SANDBOX_HOSTS } = optionVariables()

function checkEnvironmentUrls(resolved: ResolvedRefpayOptions, problems: string[]): void {
  for (const key of ["authUrl", "backofficeUrl", "paymentsUrl"] as const) {
    if (resolved.tokenInterface === "t1" && key === "backofficeUrl") continue
    if (resolved.tokenInterface === "t2" && key === "authUrl") continue
    const url = new URL(resolved[key])
    const sandboxHost = isSandboxHost(url.hostname, resolved.sandboxHosts)
    if (resolved.environment === "production" && (sandboxHost || url.protocol !== "https:")) {
      problems.push(
        `${key} (${OPTION_FIELDS[key].env}) is ${url.origin}, a sandbox or non-HTTPS address, but ${ENVIRONMENT} is production: ` +
          `use the production https URL issued at onboarding`
      )
    }
    if (resolved.environment === "sandbox" && !sandboxHost) {
      problems.push(
        `${key} (${OPTION_FIELDS[key].env}) is ${url.origin}, which is not a sandbox host, but ${ENVIRONMENT} is sandbox: ` +
          `set ${ENVIRONMENT}=production with production credentials, or list the host in ${SANDBOX_HOSTS}`
      )
    }
  }
}

function checkRules(resolved: ResolvedRefpayOptions, problems: string[]): void {
  if (resolved.tokenInterface === "t2" && (!resolved.channel || !resolved.scope)) {
    problems.push(
      `T2 needs channel and scope: set ${OPTION_FIELDS.channel.env} and ${OPTION_FIELDS.scope.env} to the values issued at onboarding`
    )
  }
  if (resolved.environment === "production" && !resolved.webhookSecret) {
    problems.push(
      `webhookSecret (${OPTION_FIELDS.webhookSecret.env}) is required in production: ${howToFix("webhookSecret")}`
    )
  }
  for (const key of ["authUrl", "backofficeUrl", "paymentsUrl"] as const) {
    const needed = key === "paymentsUrl" || (key === "authUrl") === (resolved.tokenInterface === "t1")
    if (needed && !resolved[key]) {
      problems.push(`${key} is required in production: set ${OPTION_FIELDS[key].env} to the URL issued at onboarding`)
    }
  }
  if (problems.length === 0) checkEnvironmentUrls(resolved, problems)
}

/** The limits' euros as they were written, for the message, and in cents, for the comparison. */
function checkAmountLimits(
  written: { minAmount: string; maxAmount: string },
  resolved: ResolvedRefpayOptions,
  problems: string[]
): void {
  if (resolved.minAmountCents <= resolved.maxAmountCents) return
  const { minAmount, maxAmount } = OPTION_FIELDS
  problems.push(
    `minAmount (${minAmount.env}) is ${written.minAmount} EUR, above maxAmount (${maxAmount.env}), ` +
      `${written.maxAmount} EUR: set ${minAmount.env} at or below ${maxAmount.env}`
  )
}

/**
 * Reads and checks the options; throws a RefpayOptionsError listing every wrong setting with the variable to set.
 * Messages name settings, never their values (a secret may be the wrong value).
 */
export function resolveOptions(
  options: RefpayProviderOptions = {},
  env: NodeJS.ProcessEnv = process.env
): ResolvedRefpayOptions {
  const parsed = OPTIONS_SCHEMA.safeParse(withEnvironment(options as Record<string, unknown>, env))
  if (!parsed.success) {
    throw new RefpayOptionsError(
      `REFPAY provider options are invalid: ${parsed.error.issues.map(describeIssue).join("; ")}`
    )
  }
  const { minAmount, maxAmount, ...given } = parsed.data
  const sandbox = given.environment === "sandbox"
  const resolved = {
    ...given,
    authUrl: given.authUrl ?? (sandbox ? OPTION_FIELDS.authUrl.sandboxDefault : ""),
    backofficeUrl: given.backofficeUrl ?? (sandbox ? OPTION_FIELDS.backofficeUrl.sandboxDefault : ""),
    paymentsUrl: given.paymentsUrl ?? (sandbox ? OPTION_FIELDS.paymentsUrl.sandboxDefault : ""),
    minAmountCents: toCents(minAmount),
    maxAmountCents: toCents(maxAmount),
  }
  const problems: string[] = []
  checkRules(resolved, problems)
  checkAmountLimits({ minAmount, maxAmount }, resolved, problems)
  checkShopWideSettings(resolved, env, problems)
  if (problems.length > 0) throw new RefpayOptionsError(`REFPAY provider options are invalid: ${problems.join("; ")}`)
  return resolved
}
