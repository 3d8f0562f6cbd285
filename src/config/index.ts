/**
 * The shop's REFPAY configuration: every provider option (schema and default), the environment variables behind them
 * (per account, with an account's prefix), the settings of the whole shop, and the check that stops the boot
 * on a wrong one. What each setting means is written in docs/settings/ and shown in docs/configuration.md.
 */
export {
  configuredSecrets,
  OPTION_FIELDS,
  SANDBOX_DEFAULT_URLS,
  SECRET_OPTIONS,
  type OptionField,
  type RefpayEnvOption,
  type RefpayOptionName,
  type RefpayProviderOptions,
  type RefpaySecretOption,
  type ResolvedRefpayOptions,
} from "./options-schema"
export { optionVariables } from "./environment-variables"
export { RefpayOptionsError } from "./option-errors"
export { POLL_EVERY_MINUTE, pollJobSchedule, shopWideSetting } from "./shop-wide-settings"
export { resolveOptions } from "./resolve-options"
