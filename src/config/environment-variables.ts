import { OPTION_LIST, type RefpayEnvOption } from "./options-schema"

/** The variable an account reads first: REFPAY_PORTO_CLIENT_ID for REFPAY_CLIENT_ID and "porto". */
function accountVariable(variable: string, account: string): string {
  return variable.replace(/^REFPAY_/, `REFPAY_${account.toUpperCase()}_`)
}

/**
 * The environment variable behind each option for an account: `REFPAY_<ACCOUNT>_<NAME>` with an `account` option (the
 * unprefixed `REFPAY_<NAME>` is read when that one is unset), `REFPAY_<NAME>` without. Options read from
 * medusa-config only (`account`) have none.
 */
export function optionVariables(account?: string | null): Record<RefpayEnvOption, string> {
  return Object.fromEntries(
    OPTION_LIST.flatMap(([key, field]) =>
      field.env ? [[key, account ? accountVariable(field.env, account) : field.env]] : []
    )
  ) as Record<RefpayEnvOption, string>
}

/** Options from medusa-config, each missing one taken from its environment variable. Empty strings count as unset. */
export function withEnvironment(options: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const account = typeof options.account === "string" && options.account ? options.account : null
  const merged: Record<string, unknown> = {}
  for (const [key, field] of OPTION_LIST) {
    const own = account && field.env ? env[accountVariable(field.env, account)] : undefined
    const fromEnv = field.env ? (own !== undefined && own !== "" ? own : env[field.env]) : undefined
    const value = options[key] ?? fromEnv
    if (value !== undefined && value !== "") merged[key] = value
  }
  return merged
}
