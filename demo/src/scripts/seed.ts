// Seeds the demo shop once: the Portuguese shop of ./portuguese-shop.ts (the one the integration suites run on too)
// and an admin user. Run by `npm run demo` through `medusa exec ./src/scripts/seed.ts`; running it again finds the
// shop already there and changes nothing. Writes what the storefront needs (publishable key, region id) as JSON to
// REFPAY_DEMO_SEED_FILE when set.
import { createUsersWorkflow } from "@medusajs/medusa/core-flows"
import type { ExecArgs, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { writeFileSync } from "node:fs"
import { seedPortugueseShop, SHOP_NAMES } from "./portuguese-shop"

/** Fake demo credentials, printed by `npm run demo`. */
const ADMIN_EMAIL = process.env.REFPAY_DEMO_ADMIN_EMAIL || "admin@refpay-demo.test"
const ADMIN_PASSWORD = process.env.REFPAY_DEMO_ADMIN_PASSWORD || "demo-password-not-secret"

interface SeedResult {
  region_id: string
  publishable_key: string
  sales_channel_id: string
  admin_email: string
}

export default async function seedDemoShop({ container }: ExecArgs): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const existing = await findSeededShop(container)
  const result = existing ?? (await seedShop(container))
  logger.info(existing ? "Demo shop already seeded: nothing to do." : "Demo shop seeded.")
  if (process.env.REFPAY_DEMO_SEED_FILE) {
    writeFileSync(process.env.REFPAY_DEMO_SEED_FILE, `${JSON.stringify(result, null, 2)}\n`)
  }
}

async function findSeededShop(container: MedusaContainer): Promise<SeedResult | null> {
  const regions = await container.resolve(Modules.REGION).listRegions({ name: SHOP_NAMES.region })
  if (regions.length === 0) return null
  const keys = await container
    .resolve(Modules.API_KEY)
    .listApiKeys({ title: SHOP_NAMES.publishableKey, type: "publishable" })
  const channels = await container.resolve(Modules.SALES_CHANNEL).listSalesChannels({ name: SHOP_NAMES.salesChannel })
  if (keys.length === 0 || channels.length === 0) {
    throw new Error("The demo database is half seeded. Start again with: npm run demo -- --reset")
  }
  return {
    region_id: regions[0].id,
    publishable_key: keys[0].token,
    sales_channel_id: channels[0].id,
    admin_email: ADMIN_EMAIL,
  }
}

async function seedShop(container: MedusaContainer): Promise<SeedResult> {
  const shop = await seedPortugueseShop(container, { refpayProviderIds: ["pp_refpay_refpay"] })
  await createAdminUser(container)
  return {
    region_id: shop.regionId,
    publishable_key: shop.publishableKey,
    sales_channel_id: shop.salesChannelId,
    admin_email: ADMIN_EMAIL,
  }
}

/** The admin user, made the way `medusa user -e ... -p ...` makes one. */
async function createAdminUser(container: MedusaContainer): Promise<void> {
  const auth = container.resolve(Modules.AUTH)
  const { result: users } = await createUsersWorkflow(container).run({
    input: { users: [{ email: ADMIN_EMAIL, first_name: "Admin", last_name: "Demo" }] },
  })
  const { authIdentity, error } = await auth.register("emailpass", {
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  })
  if (error || !authIdentity) throw new Error(`Could not register the demo admin: ${error}`)
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: users[0].id } })
}
