// Longer than 300 lines by nature: one table of every text the admin shows, one screen per key group (refpay.*).
import type { ConnectionTextCode } from "../../api/admin/refpay/connection-test/connection-texts"
import type { TestEventTextCode } from "../../api/admin/refpay/webhooks/test-event/test-event-texts"
import type { WebhookWarningCode } from "../../api/admin/refpay/webhooks/webhook-health"
import type { MalformedWebhookReason } from "../../rules/webhook"

/**
 * The admin's English texts, word for word as the plugin has always shown them (the browser tests read them). All
 * under "refpay" so that, merged into the dashboard's own resources, they never meet Medusa's keys. Counted texts
 * have a `one` and an `other` form, chosen by `countKey`.
 */
export const en = {
  refpay: {
    common: {
      loading: "Loading…",
      orderNumber: "Order #{{number}}",
      routes: { medusaRoute: "Medusa's route", medusa: "Medusa" },
      // The pager's words, as @medusajs/ui's Table.Pagination says them in English.
      pager: { of: "of", results: "results", pages: "pages", prev: "Prev", next: "Next" },
    },
    time: {
      future: "in {{value}} {{unit}}",
      past: "{{value}} {{unit}} ago",
      units: { s: "s", min: "min", h: "h", days: "days" },
    },
    page: {
      loadError: "Could not load the REFPAY settings: {{message}}",
    },
    numbers: {
      heading: "Your REFPAY numbers",
      intro:
        "How many references get paid and how fast, what reminders and renewals recovered, and Medusa against the platform, for the period chosen (Lisbon days).",
      from: "From",
      to: "To",
      show: "Show",
      exportCsv: "Download CSV (for the accountant)",
      exportFailed: "Could not download the CSV: {{message}}",
      loadError: "Could not load the numbers: {{message}}",
      period: "{{from}} to {{to}}",
      conversion: {
        heading: "Conversion of the references issued",
        issued: "Issued",
        paid: "Paid",
        waiting: "Waiting",
        expired: "Expired",
        renewed: "Renewed",
        cancelled: "Cancelled",
        paidShare: "{{share}} paid",
      },
      chart: {
        heading: "Per day",
        issued: "References issued",
        paid: "Payments received",
        bar: "{{day}}: {{issued}} issued, {{paid}} paid",
      },
      timeToPay: {
        heading: "Days from issue to payment",
        sameDay: "Same day",
        days: "{{days}} d",
        bar: "{{label}}: {{count}}",
      },
      recovered: {
        heading: "What the plugin recovered",
        paid_after_reminder: "Paid after a reminder",
        paid_on_renewed_reference: "Paid on a renewed reference",
        late_payments_refunded: "Late payments refunded",
        late_payments_recorded: "Late payments kept",
      },
      reconciliation: {
        heading: "Medusa against the platform",
        day: "Day",
        medusaCaptured: "Captured (Medusa)",
        medusaRefunded: "Refunded (Medusa)",
        platformApproved: "Approved (platform)",
        platformRefunded: "Refunded (platform)",
        order: "Order",
        reference: "Entity / reference",
        differences: { one: "{{count}} payment differs:", other: "{{count}} payments differ:" },
        agree: "Medusa and the platform agree on every payment of the period.",
        noPayments: "No payment in this period.",
      },
    },
    banner: {
      review: "Review",
      kinds: {
        paid_after_cancellation: {
          one: "{{count}} paid after cancellation (to refund)",
          other: "{{count}} paid after cancellation (to refund)",
        },
        paid_after_session_deleted: {
          one: "{{count}} paid after Medusa deleted its payment (to refund)",
          other: "{{count}} paid after Medusa deleted their payments (to refund)",
        },
        refund_mismatch: {
          one: "{{count}} refunded total differing from REFPAY's",
          other: "{{count}} refunded totals differing from REFPAY's",
        },
        amount_mismatch: { one: "{{count}} amount mismatch", other: "{{count}} amount mismatches" },
        unknown_payment: {
          one: "{{count}} reference unknown to REFPAY",
          other: "{{count}} references unknown to REFPAY",
        },
        platform_error: { one: "{{count}} failed status check", other: "{{count}} failed status checks" },
        expiring: {
          one: "{{count}} reference expiring within 24 h",
          other: "{{count}} references expiring within 24 h",
        },
      },
    },
    connection: {
      environment: { sandbox: "Sandbox", production: "Production" },
      intro: "Reference payments: the customer pays an entity and a reference at an ATM or in a banking app.",
      sellerAccount: "Seller account {{account}} ({{providerId}}).",
      account: "Account {{account}}",
      test: "Test connection",
      sandboxNote:
        "Sandbox environment: payments are simulated and no money moves. Switch REFPAY_ENVIRONMENT to production, with production credentials, to take real payments.",
      productionNote: "Production environment: references are real and customers pay real money.",
      couldNotRun: "The connection test could not run: {{message}}",
      steps: { token: "Token", payments: "Payments API" },
      nextStep: "Next step:",
      platformSaid: "The platform said:",
      tested: "Tested {{when}} in {{ms}} ms, with a client of its own (the shop's payments were not disturbed).",
      /** The connection test's sentences (src/api/admin/refpay/connection-test/connection-texts.ts), with the words their values name. */
      texts: {
        connected:
          "Connected to {{platform}}: the {{interface}} token service issued a token and the payments API accepted it.",
        connected_payment_unknown:
          "Connected to {{platform}}: the {{interface}} token service issued a token, and the payments API accepted it (a status read of a made-up payment answered 404 PAYMENT_NOT_FOUND, as expected).",
        settings_incomplete: "The REFPAY settings are incomplete: {{detail}}",
        connect_timeout: "{{service}} at {{origin}} could not be reached within {{ms}} ms ({{code}}).",
        answer_timeout:
          "{{service}} at {{origin}} accepted the connection but did not answer within {{ms}} ms ({{code}}).",
        tls_failed:
          "The secure (TLS) connection to {{origin}} failed ({{code}}): its certificate is not trusted or does not match the host name.",
        host_not_found:
          "The host of {{origin}} could not be found ({{code}}): its name does not resolve from this server.",
        nothing_listening: "{{service}} at {{origin}} could not be reached ({{code}}: nothing is listening there).",
        unreachable: "{{service}} at {{origin}} could not be reached ({{code}}).",
        connection_failed: "The connection to {{origin}} failed ({{code}}).",
        not_the_platform_body:
          "{{service}} at {{origin}} answered {{status}}with a body that is not the platform's ({{code}}).",
        credentials_refused: "The token service refused the shop's credentials ({{reply}}). No token was issued.",
        scope_not_granted:
          "The token service knows the credentials but does not grant the requested scope ({{reply}}).",
        token_request_refused: "The token service refused the token request ({{reply}}).",
        scope_not_covering_payments:
          "A token was issued, but its scope does not cover payments: the payments API answered {{reply}}.",
        token_rejected_by_payments:
          "A token was issued, but the payments API refused it ({{reply}}), even freshly issued.",
        not_found_not_platform:
          "The payments host answered 404 without the platform's PAYMENT_NOT_FOUND code ({{code}}).",
        server_error: "{{service}} answered with a server error ({{reply}}).",
        request_refused: "{{service}} refused the request ({{reply}}).",
        could_not_test: "{{service}} could not be tested: {{name}}.",
        fix_setting: "Fix the setting named and restart Medusa.",
        check_reachable_or_connect_timeout:
          "Check that the host is reachable from this server (firewall, proxy, VPN) or raise REFPAY_CONNECT_TIMEOUT_MS.",
        retry_or_request_timeout: "The platform may be slow right now: try again, or raise REFPAY_REQUEST_TIMEOUT_MS.",
        check_host_and_certificate:
          "Check the URL's host name; a certificate signed by a private authority needs NODE_EXTRA_CA_CERTS on this server.",
        check_host_and_dns: "Check the host name in the URL setting, and this server's DNS.",
        start_local_sandbox:
          "Check the URL settings; for the local sandbox, start it (npx refpay-sandbox) on the configured port.",
        check_urls_and_firewall:
          "Check the URL settings and that this server may connect to the platform (firewall, proxy).",
        check_urls_and_network: "Check the URL settings and the network between this server and the platform.",
        check_url_and_paths: "The URL may point at another service: check the URL and path settings.",
        check_credentials: "Check {{credentials}}. {{environment_note}}",
        check_scope: "Check REFPAY_SCOPE; widening a scope is done by the platform operator (it follows the contract).",
        check_credentials_and_interface:
          "Check {{credentials}} and REFPAY_TOKEN_INTERFACE (t1 or t2, as issued at onboarding).",
        ask_for_payments_scope:
          "Ask the platform operator to grant the payments scope to these credentials, or check REFPAY_SCOPE.",
        check_same_environment:
          "The token service and the payments host may belong to different environments: check that the token URL and REFPAY_PAYMENTS_URL are both {{environment}} ones.",
        check_payments_url: "REFPAY_PAYMENTS_URL or REFPAY_PAYMENT_INFO_PATH probably points at the wrong place.",
        retry_later: "The platform has a problem right now; try again in a few minutes.",
        step_token_issued: "A token was issued.",
        step_status_read: "The status read answered 200 ({{status}}) for a made-up payment id.",
        step_payment_unknown: "The token and its scope work: the made-up payment is unknown, as expected.",
        step_not_tried_no_token: "Not tried: no token.",
        step_credentials_refused: "The credentials were refused.",
        step_scope_not_granted: "The scope does not cover this.",
        step_token_refused: "The token was refused.",
        step_request_refused: "The request was refused.",
        step_no_connection: "No connection.",
        step_tls_failed: "The secure connection failed.",
        step_no_answer_in_time: "No answer in time.",
        step_platform_failed: "The platform failed.",
        step_not_platform_answer: "Not the platform's answer.",
        step_settings_incomplete: "Not tried: the settings are incomplete.",
      } satisfies Record<ConnectionTextCode, string>,
      services: { token: "The token service", payments: "The payments API" },
      credentials: {
        t1: "REFPAY_CLIENT_ID and REFPAY_CLIENT_SECRET",
        t2: "REFPAY_CLIENT_ID, REFPAY_CLIENT_SECRET, REFPAY_CHANNEL and REFPAY_SCOPE",
      },
      environmentNotes: {
        production:
          "Sandbox credentials do not work in production: use the production credentials issued at onboarding.",
        sandbox:
          "Production credentials do not work in the sandbox: use the sandbox credentials issued for homologation.",
      },
      environmentNames: { sandbox: "sandbox", production: "production" },
      platforms: { sandbox: "the REFPAY sandbox", production: "REFPAY production" },
      interfaces: { t1: "T1 (OAuth client credentials)", t2: "T2 (back-office token)" },
    },
    payments: {
      columns: { order: "Order", entityReference: "Entity / reference", amount: "Amount" },
      cancelled: "Cancelled",
      noOrder: "No order (cart not completed)",
      account: "account {{account}}",
    },
    attention: {
      heading: "Payments that need attention",
      nothing: "Nothing needs you right now.",
      total: { one: "{{count}} payment to look at.", other: "{{count}} payments to look at." },
      kinds: {
        expiring: {
          label: "Expiring within 24 h",
          explain: "Waiting references whose validity ends within a day: a reminder may still save the sale.",
          column: "Expires",
        },
        paid_after_cancellation: {
          label: "Paid after cancellation",
          explain:
            "The customer paid after the order was cancelled: the money is held until you refund it (or reinstate the sale with the customer).",
          column: "Paid after cancellation",
        },
        paid_after_session_deleted: {
          label: "Paid, not in Medusa",
          explain:
            "The customer paid a cancelled reference after Medusa deleted its payment (a storefront created another): Medusa has no record of this money, the plugin kept the reference and found it. Refund it here (or reinstate the sale with the customer).",
          column: "Found paid",
        },
        refund_mismatch: {
          label: "Refunds differ",
          explain:
            "Medusa's refunded total differs from the platform's: a refund was made on the platform and not recorded in Medusa, or recorded in Medusa and not made on the platform. Check status now records the first, and removes a refund cut short by a server stopped during its call once it is 15 minutes old (refund it again); compare both and correct anything else.",
          column: "Refunded",
        },
        amount_mismatch: {
          label: "Amount mismatch",
          explain:
            "The platform reports a payment for another amount than the order's. It is never captured automatically: check it on the platform.",
          column: "Last check",
        },
        unknown_payment: {
          label: "Unknown to REFPAY",
          explain:
            "The platform does not know these references: check the REFPAY environment and credentials, or the payment on the platform. Nothing was cancelled.",
          column: "Last check",
        },
        platform_error: {
          label: "Last check failed",
          explain: "The last status check could not reach the platform. They are checked again automatically.",
          column: "Last check",
        },
      },
      listError: "Could not load the list: {{message}}",
      action: "Action",
      empty: "Nothing here.",
      detail: {
        failuresInARow: "{{when}} ({{count}} failures in a row)",
        platformStatus: "Platform status: {{status}}",
        platformStatusWithError: "Platform status: {{status}}: {{error}}",
        refundedAndHeld: "{{refunded}} refunded, {{held}} held",
        held: "{{held}} held",
        refundedOnBothSides: "Medusa {{medusa}}, REFPAY {{refpay}}",
        refundedOfCaptured: "Refunded of {{captured}} captured (REFPAY as last read)",
      },
      refund: {
        button: "Refund {{amount}}",
        title: "Refund {{amount}}?",
        description:
          "Order #{{order}} was cancelled before the customer paid reference {{reference}}. {{amount}} goes back to the customer through REFPAY; this cannot be undone.",
        confirm: "Refund {{amount}}",
        cancel: "Cancel",
        done: "Refunded",
        doneDescription: "{{amount}} is on its way back to the customer of order #{{order}}.",
        failed: "The refund failed",
      },
    },
    search: {
      heading: "Find an order by reference",
      intro: "The reference a customer quotes, exactly as shown to them (leading zeros count); the entity is optional.",
      entity: "Entity",
      reference: "Reference",
      entityPlaceholder: "optional",
      referencePlaceholder: "e.g. 012 345 678",
      submit: "Search",
      none: "No REFPAY payment has the reference {{query}}.",
      found: { one: "{{count}} payment with {{query}}:", other: "{{count}} payments with {{query}}:" },
      columns: { issued: "Issued", payment: "Payment" },
      states: {
        paidPartlyRefunded: "Paid, partly refunded",
        paidRefunded: "Paid, refunded",
        paid: "Paid",
        awaiting: "Awaiting payment",
        cancelled: "Cancelled",
      },
    },
    webhooks: {
      heading: "Webhooks",
      // The server's warnings, as codes and values (webhooks/webhook-health.ts), sentence by sentence.
      warnings: {
        texts: {
          no_secret:
            "REFPAY_WEBHOOK_SECRET is not set: every webhook delivery is refused (401). Set it to the secret the platform sends, then restart Medusa.",
          refused_recently: {
            one: "{{count}} webhook delivery was refused (401), the last at {{when}}, {{reason}}.",
            other: "{{count}} webhook deliveries were refused (401), the last at {{when}}, {{reason}}.",
          },
          malformed_recently: {
            one: "{{count}} authentic webhook delivery was not a usable REFPAY event, the last at {{when}}, {{reason}}.",
            other:
              "{{count}} authentic webhook deliveries were not usable REFPAY events, the last at {{when}}, {{reason}}.",
          },
          no_recent_delivery: {
            one: "No webhook delivery has arrived {{since}}, while {{count}} payment is waiting: webhooks are probably not configured on the platform. Payments are still found by the poll job, later.",
            other:
              "No webhook delivery has arrived {{since}}, while {{count}} payments are waiting: webhooks are probably not configured on the platform. Payments are still found by the poll job, later.",
          },
          url_not_https:
            "The webhook URL is not https: set Medusa's admin.backendUrl (MEDUSA_BACKEND_URL) to the shop's public https address.",
          url_not_public:
            "The webhook URL names this machine, which the platform cannot reach: set MEDUSA_BACKEND_URL to the shop's public address.",
        } satisfies Record<WebhookWarningCode, unknown>,
        refusalReasons: {
          wrong_secret: "with a secret that is not REFPAY_WEBHOOK_SECRET",
          missing_secret: "without any secret (no x-refpay-webhook-secret header nor HTTP Basic password)",
          no_secret_configured: "because this shop has no REFPAY_WEBHOOK_SECRET",
        },
        acceptedSince:
          "Deliveries have been accepted since: the secret may have been fixed, or someone else is calling this URL.",
        giveSameSecret: "Give the platform the same secret as REFPAY_WEBHOOK_SECRET.",
        malformedReasons: {
          no_payment_id: "without a payment_id",
          no_event_type: "without an event_type",
          not_json: "with a body that is not JSON",
          not_an_object: "with a body that is not a JSON object",
        } satisfies Record<MalformedWebhookReason, string>,
        malformedOtherReason: "({{reason}})",
        malformedIgnored:
          "They were acknowledged (200) so the platform does not resend them forever, and ignored; the poll job still checks every waiting payment. If this goes on, the platform's event format may have changed: contact REFPAY.",
        sinceEver: "ever",
        sinceLast: "for more than 24 hours (the last at {{when}})",
      },
      intro:
        "The platform tells the shop when a customer pays. Without webhooks the poll job still finds payments, later.",
      refresh: "Refresh",
      loadError: "Could not load the webhook status: {{message}}",
      url: {
        label: "URL to give the platform",
        fromBackendUrl: "Built from Medusa's admin.backendUrl (MEDUSA_BACKEND_URL).",
        fromRequest:
          "Built from the address this page was opened with; set MEDUSA_BACKEND_URL (Medusa's admin.backendUrl) to the shop's public https address if it differs.",
        medusaRoute: "Medusa's own route {{url}} works too (processed 5 seconds later).",
      },
      authentication: {
        label: "Authentication",
        // <badge> and <code> are the secret's state and the header's name, as the page shows them.
        sentence:
          "Every delivery must carry the shop's webhook secret ({{variable}}, <badge>{{state}}</badge>), either in the header <code>{{header}}</code> or as the password of HTTP Basic authentication (any user name). Deliveries without it are refused with 401.",
        set: "set",
        missing: "missing",
      },
      summary: {
        lastDelivery: "Last delivery:",
        lastDeliveryWhen: "{{when}} ({{relative}})",
        noneYet: "none yet",
        waiting: "Payments waiting:",
        refused: "Refused:",
        refusal: "{{count}} ({{reason}}, {{route}}, last {{relative}})",
        malformed: "Unusable (authentic, acknowledged, ignored):",
      },
      refusalReasons: {
        wrong_secret: "wrong secret",
        missing_secret: "no secret",
        no_secret_configured: "shop has no secret",
      },
      malformedReasons: {
        no_payment_id: "no payment_id",
        no_event_type: "no event_type",
        not_json: "not JSON",
        not_an_object: "not a JSON object",
      },
      testEvent: {
        intro: "Sandbox: send a test event to see a delivery arrive here (a throwaway 1,00 € payment in the sandbox).",
        send: "Send a test event",
        waiting: "{{message}} Waiting for the delivery… {{summary}}",
        arrived: "The test delivery arrived {{when}}: {{event}}, through {{route}}. Webhooks work.",
        couldNotSend: "The test event could not be sent.",
        noDelivery: "No delivery arrived within {{seconds}} s. {{summary}}",
        // What the server answers, as codes (webhooks/test-event/test-event-texts.ts).
        texts: {
          sent_to_this_shop:
            "A test payment was created in the sandbox; its PENDING_TRANSACTIONS event is on its way to this shop.",
          sent_elsewhere:
            "A test payment was created, but the sandbox delivers its webhooks to {{sandbox_webhook_url}}, not to {{shop_webhook_url}}.",
          not_sandbox: "Test events can only be sent in the sandbox environment.",
          no_sandbox_controls:
            "The sandbox at {{origin}} has no test controls ({{controls_url}}): only the plugin's REFPAY sandbox simulator (npx refpay-sandbox) can send a test event. Place a small order instead.",
          no_webhook_url:
            "The sandbox delivers no webhooks: start it with --webhook-url {{shop_webhook_url}} and the shop's webhook secret in REFPAY_SANDBOX_WEBHOOK_SECRET.",
          creation_failed: "The test payment could not be created.",
          controls_silent: "The sandbox's controls did not answer.",
          not_tried_yet: "The sandbox has not tried to deliver the event yet.",
          delivered: "The sandbox delivered the event (HTTP {{status}}).",
          refused_secret:
            "The shop refused the sandbox's delivery (401): the sandbox's webhook secret is not REFPAY_WEBHOOK_SECRET.",
          shop_answered: "The shop answered the sandbox's delivery with HTTP {{status}}; the sandbox retries.",
          not_delivered:
            "The sandbox could not deliver the event ({{error}}): check the URL it was started with (--webhook-url).",
        } satisfies Record<TestEventTextCode, string>,
      },
      deliveries: {
        heading: "Latest deliveries",
        note: "Deliveries refused for their secret, and authentic ones that were not usable events, are not listed; they are counted above.",
        allOutcomes: "All outcomes",
        loadError: "Could not load the deliveries: {{message}}",
        columns: { received: "Received", event: "Event", payment: "Payment", route: "Route", outcome: "Outcome" },
        testPayment: "Test payment",
        noOrder: "No order here",
        emptyAll: "No delivery has been recorded yet.",
        emptyFiltered: "No delivery with this outcome.",
        statuses: {
          processed: "Processed",
          duplicate: "Duplicate",
          unknown_payment: "Unknown payment",
          not_processed: "Not processed",
          test: "Test event",
        },
      },
    },
    configuration: {
      heading: "Configuration",
      intro:
        "As this server resolved it at start-up: medusa-config options first, then the REFPAY_* variables, then the defaults. Change a setting through its variable and restart Medusa.",
      account:
        'This is seller account "{{account}}": each setting is read from REFPAY_{{prefix}}_* first, then from REFPAY_*.',
      groups: {
        platform: "Platform",
        credentials: "Credentials",
        credentialsNote: "Values are never shown: only whether each one is set.",
        timeouts: "Timeouts and retries",
        expiry: "Expiry",
        poll: "Status checks (poll job)",
        latePayments: "Payments after cancellation",
      },
      credential: { set: "Set", missing: "Missing", missingRequired: "Missing (required)" },
      rows: {
        environment: "Environment",
        tokenInterface: "Token interface",
        authUrl: "Token service (T1)",
        backofficeUrl: "Back-office (T2)",
        paymentsUrl: "Payments host",
        paymentInfoPath: "Status read path",
        cancelPath: "Cancel and refund path",
        t2AuthorizationForm: "T2 Authorization header",
        sandboxHosts: "Extra sandbox hosts",
        clientId: "Client id",
        clientSecret: "Client secret",
        channel: "Channel (T2)",
        scope: "Scope",
        webhookSecret: "Webhook secret",
        connectTimeout: "Connect",
        requestTimeout: "Response headers",
        bodyTimeout: "Silence in a body",
        maxRetries: "Retries (connection errors, 5xx)",
        expiryDays: "Reference valid for",
        expiryGrace: "Grace after expiry",
        expiryPolicy: "When a reference expires unpaid",
        maxRenewals: "Renewals per order",
        reminder: "Reminder before expiry",
        cancelExpiredOrders: "Cancel the order when it expires",
        pollBatchSize: "Payments checked per run, at least",
        pollInterval: "Each waiting payment checked every",
        lateSettlement: "Late settlements checked for",
        autoRefund: "Refund automatically",
      },
      values: {
        t1: "T1, OAuth client credentials",
        t2: "T2, back-office token",
        bearer: "Bearer <token>",
        tokenAlone: "the token alone",
        renew: "issue a new reference (up to {{times}})",
        cancel: "cancel it",
        noReminder: "none",
        before: "{{hours}} before",
        afterValidity: "{{days}} after validity",
        yes: "yes",
        no: "no",
        noAutoRefund: "no: listed under Payments that need attention",
      },
      units: {
        day: { one: "{{count}} day", other: "{{count}} days" },
        hour: { one: "{{count}} hour", other: "{{count}} hours" },
        minute: { one: "{{count}} minute", other: "{{count}} minutes" },
        time: { one: "{{count}} time", other: "{{count}} times" },
      },
    },
    order: {
      loadError: "Could not load the REFPAY payment: {{message}}",
      statuses: {
        paid: "Paid",
        expired: "Expired",
        awaiting: "Awaiting payment — do not ship",
        cancelled: "Cancelled",
        failed: "Failed",
      },
      warnings: {
        paidButCancelled: "Paid, but the order is cancelled: do not ship.",
        expiredUnpaid: "The reference expired unpaid: do not ship.",
        awaiting:
          "Do not ship until REFPAY confirms the payment. The order becomes paid by itself when the customer pays.",
        failed: "The payment failed: do not ship.",
      },
      alerts: {
        paidAfterCancellation: "Paid after the order was cancelled: refund or contact the customer.",
        paidAfterCancellationAt:
          "Paid after the order was cancelled: refund or contact the customer. (payment recorded {{when}})",
        unknownToPlatform:
          "The platform does not know this reference (last checked {{when}}). Nothing was cancelled; check the shop's REFPAY environment and credentials, or the payment on the platform.",
        checkFailed: {
          one: "The last status check could not reach the platform; it is checked again automatically.",
          other: "The last {{count}} status checks could not reach the platform; it is checked again automatically.",
        },
      },
      fields: {
        entity: "Entity",
        reference: "Reference",
        amount: "Amount",
        platformStatus: "Platform status",
        expired: "Expired",
        payBy: "Pay by",
        lastChecked: "Last checked",
      },
      history: "References of this order",
      requests: {
        heading: "Payments of this order",
        outstanding: "Amount due: {{amount}}",
        settled: "Nothing due.",
        loadError: "Could not load the order's payments: {{message}}",
        states: {
          paid: "Paid",
          awaiting_refpay: "Awaiting payment — do not ship",
          requestable: "Unpaid, no reference yet",
          nothing_due: "Nothing to pay by REFPAY",
        },
      },
      actions: {
        issueNewReference: "Issue a new reference",
        confirmNewReference: "Issue a new REFPAY reference for this order and e-mail it to the customer?",
        requestPayment: "Request payment by REFPAY",
        confirmRequestPayment: "Issue a REFPAY reference for {{amount}} and e-mail it to the customer?",
        checkNow: "Check status now",
      },
      toasts: {
        checked: "REFPAY status checked",
        checkedDescription: "{{status}} (platform: {{platform}})",
        checkFailed: "Could not check the REFPAY status",
        issued: "New REFPAY reference issued",
        issuedDescription: "Entity {{entity}}, reference {{reference}}",
        issueFailed: "Could not issue a new reference",
        requested: "REFPAY payment requested",
        alreadyRequested: "A REFPAY reference was already waiting",
        requestedDescription: "Entity {{entity}}, reference {{reference}}, {{amount}}",
        requestFailed: "Could not request the payment",
      },
    },
  },
}

/** The same keys with any text: what every other language must provide. */
export type Translations<T = typeof en> = { [K in keyof T]: T[K] extends string ? string : Translations<T[K]> }
