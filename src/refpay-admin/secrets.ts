import type { ResolvedRefpayOptions } from "../providers/refpay/options"

/**
 * The configured credentials, for scrubbing free text (a platform's error detail, a recorded check error) before it
 * reaches the admin. Responses are built from whitelists; this is the second fence for text we did not write.
 */
export function configuredSecrets(settings: Readonly<ResolvedRefpayOptions>): (string | undefined)[] {
  return [settings.clientSecret, settings.webhookSecret, settings.clientId, settings.channel, settings.scope]
}

/** Replaces every occurrence of a configured credential (of 4 characters or more) with [redacted]. */
export function scrub(text: string, secrets: (string | undefined)[]): string {
  let out = text
  for (const secret of secrets) {
    if (typeof secret === "string" && secret.length >= 4) out = out.split(secret).join("[redacted]")
  }
  return out
}
