import { SECRET_OPTIONS, type ResolvedRefpayOptions } from "../providers/refpay/options"

/**
 * The configured credentials (every option marked secret), for scrubbing free text (a platform's error detail, a
 * recorded check error) before it reaches the admin. Responses are built from whitelists; this is the second fence
 * for text we did not write. Longest first, so a credential that contains another is replaced whole.
 */
export function configuredSecrets(settings: Readonly<ResolvedRefpayOptions>): (string | undefined)[] {
  return SECRET_OPTIONS.map((key) => settings[key]).sort((a, b) => (b?.length ?? 0) - (a?.length ?? 0))
}

/** Replaces every occurrence of a configured credential (of 4 characters or more) with [redacted]. */
export function scrub(text: string, secrets: (string | undefined)[]): string {
  let out = text
  for (const secret of secrets) {
    if (typeof secret === "string" && secret.length >= 4) out = out.split(secret).join("[redacted]")
  }
  return out
}
