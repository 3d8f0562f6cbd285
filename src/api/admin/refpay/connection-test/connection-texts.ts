import { codedText, type CodedText } from "../coded-text"

/**
 * The sentences of the connection test, as codes with the values they name: the admin UI says them in the admin's
 * language (src/admin/i18n, `refpay.connection.texts.<code>`). Values are what no language changes (URLs, codes,
 * numbers), or one of a few words the UI translates too: `service` (token, payments), `credentials` (t1, t2: the
 * variables to check), `environment` and `platform` (sandbox, production), `interface` (t1, t2).
 */
export type ConnectionTextCode =
  // Summaries of a passed test.
  | "connected"
  | "connected_payment_unknown"
  // Summaries of a failure.
  | "settings_incomplete"
  | "connect_timeout"
  | "answer_timeout"
  | "tls_failed"
  | "host_not_found"
  | "nothing_listening"
  | "unreachable"
  | "connection_failed"
  | "not_the_platform_body"
  | "credentials_refused"
  | "scope_not_granted"
  | "token_request_refused"
  | "scope_not_covering_payments"
  | "token_rejected_by_payments"
  | "not_found_not_platform"
  | "server_error"
  | "request_refused"
  | "could_not_test"
  // What to do next.
  | "fix_setting"
  | "check_reachable_or_connect_timeout"
  | "retry_or_request_timeout"
  | "check_host_and_certificate"
  | "check_host_and_dns"
  | "start_local_sandbox"
  | "check_urls_and_firewall"
  | "check_urls_and_network"
  | "check_url_and_paths"
  | "check_credentials"
  | "check_scope"
  | "check_credentials_and_interface"
  | "ask_for_payments_scope"
  | "check_same_environment"
  | "check_payments_url"
  | "retry_later"
  // What each step showed.
  | "step_token_issued"
  | "step_status_read"
  | "step_payment_unknown"
  | "step_not_tried_no_token"
  | "step_credentials_refused"
  | "step_scope_not_granted"
  | "step_token_refused"
  | "step_request_refused"
  | "step_no_connection"
  | "step_tls_failed"
  | "step_no_answer_in_time"
  | "step_platform_failed"
  | "step_not_platform_answer"
  | "step_settings_incomplete"

export type ConnectionText = CodedText<ConnectionTextCode>

/** A connection text from its code and values. */
export const connectionText = codedText<ConnectionTextCode>
