// The demo's time-travel route calls the plugin's poll run directly (a demo-only shortcut; a shop never needs it).
// The package ships declarations for its public entry points only, so this one is declared here.
declare module "medusa-payment-refpay/sync-triggers/poll/poll" {
  import type { MedusaContainer } from "@medusajs/framework/types"
  export function pollRefpayPayments(
    container: MedusaContainer,
    now?: Date,
    options?: { skipIfBusy?: boolean }
  ): Promise<unknown[]>
}
