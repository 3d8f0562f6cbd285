import type { ExecArgs } from "@medusajs/framework/types"
import { checkMedusaReliances } from "./contracts"

/**
 * `npx medusa exec <plugin>/.medusa/server/src/medusa-compat/check-contracts.js` in a shop's app: checks the plugin's
 * reliances on Medusa (contracts.ts) against that app's Medusa and prints one line the compatibility tier reads
 * (`REFPAY_MEDUSA_RELIANCES <json>`); exits non-zero when one fails. A shop can run it after upgrading Medusa.
 */
export default async function checkContracts({ container }: ExecArgs): Promise<void> {
  const results = await checkMedusaReliances(container)
  process.stdout.write(`REFPAY_MEDUSA_RELIANCES ${JSON.stringify(results)}\n`)
  if (results.some((result) => !result.ok)) process.exitCode = 1
}
