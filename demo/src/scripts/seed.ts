// Seeds the demo shop once: a Portugal region in EUR with REFPAY and the system provider, a stock location, a
// shipping option, a few products, a publishable key and an admin user. Run by `npm run demo` through
// `medusa exec ./src/scripts/seed.ts`; running it again finds the shop already there and changes nothing.
// Writes what the storefront needs (publishable key, region id) as JSON to REFPAY_DEMO_SEED_FILE when set.
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  createUsersWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"
import type { ExecArgs, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, ProductStatus } from "@medusajs/framework/utils"
import { writeFileSync } from "node:fs"

const REGION_NAME = "Portugal"
const API_KEY_TITLE = "Loja REFPAY (demo)"
const PAYMENT_PROVIDERS = ["pp_refpay_refpay", "pp_system_default"]

/** Fake demo credentials, printed by `npm run demo`. */
const ADMIN_EMAIL = process.env.REFPAY_DEMO_ADMIN_EMAIL || "admin@refpay-demo.test"
const ADMIN_PASSWORD = process.env.REFPAY_DEMO_ADMIN_PASSWORD || "demo-password-not-secret"

interface SeedResult {
  region_id: string
  publishable_key: string
  sales_channel_id: string
  admin_email: string
}

const PRODUCTS: { title: string; handle: string; sku: string; description: string; eur: number }[] = [
  { title: "Caneca de cerâmica", handle: "caneca", sku: "CANECA-AZUL", description: "Caneca azul feita nas Caldas da Rainha.", eur: 19.99 },
  { title: "Azulejo pintado à mão", handle: "azulejo", sku: "AZULEJO-15", description: "Azulejo de 15 × 15 cm, padrão lisboeta.", eur: 24.9 },
  { title: "Lata de sardinhas", handle: "sardinhas", sku: "SARDINHAS-120", description: "Sardinhas em azeite, 120 g.", eur: 3.75 },
  { title: "Postal de Lisboa", handle: "postal", sku: "POSTAL-ELETRICO", description: "O elétrico 28 na Graça.", eur: 1.5 },
]

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
  const regions = await container.resolve(Modules.REGION).listRegions({ name: REGION_NAME })
  if (regions.length === 0) return null
  const keys = await container.resolve(Modules.API_KEY).listApiKeys({ title: API_KEY_TITLE, type: "publishable" })
  const channels = await container.resolve(Modules.SALES_CHANNEL).listSalesChannels({ name: "Loja online" })
  if (keys.length === 0 || channels.length === 0) {
    throw new Error("The demo database is half seeded. Start again with: npm run demo -- --reset")
  }
  return { region_id: regions[0].id, publishable_key: keys[0].token, sales_channel_id: channels[0].id, admin_email: ADMIN_EMAIL }
}

async function seedShop(container: MedusaContainer): Promise<SeedResult> {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)

  const { result: channels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Loja online", description: "A loja de demonstração" }] },
  })
  const salesChannelId = channels[0].id

  const { result: regions } = await createRegionsWorkflow(container).run({
    input: { regions: [{ name: REGION_NAME, currency_code: "eur", countries: ["pt"], payment_providers: PAYMENT_PROVIDERS }] },
  })
  const regionId = regions[0].id
  await createTaxRegionsWorkflow(container).run({ input: [{ country_code: "pt", provider_id: "tp_system" }] })

  const [store] = await container.resolve(Modules.STORE).listStores()
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: "Loja REFPAY (demo)",
        supported_currencies: [{ currency_code: "eur", is_default: true }],
        default_sales_channel_id: salesChannelId,
        default_region_id: regionId,
      },
    },
  })

  const { result: profiles } = await createShippingProfilesWorkflow(container).run({
    input: { data: [{ name: "Standard", type: "default" }] },
  })
  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: "Entregas em Portugal",
    type: "shipping",
    service_zones: [{ name: "Portugal", geo_zones: [{ type: "country", country_code: "pt" }] }],
  })

  const { result: locations } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: "Armazém Lisboa", address: { city: "Lisboa", country_code: "PT", address_1: "Rua Augusta 1" } }] },
  })
  const stockLocationId = locations[0].id
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: stockLocationId, add: [salesChannelId] } })
  await link.create([
    { [Modules.STOCK_LOCATION]: { stock_location_id: stockLocationId }, [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id } },
    { [Modules.STOCK_LOCATION]: { stock_location_id: stockLocationId }, [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" } },
  ])

  await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Envio standard (CTT)",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: profiles[0].id,
        type: { label: "Standard", description: "2-3 dias úteis", code: "standard" },
        prices: [{ currency_code: "eur", amount: 4.99 }],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  await createProductsWorkflow(container).run({
    input: {
      products: PRODUCTS.map((product) => ({
        title: product.title,
        handle: product.handle,
        description: product.description,
        status: ProductStatus.PUBLISHED,
        shipping_profile_id: profiles[0].id,
        options: [{ title: "Modelo", values: ["Único"] }],
        variants: [
          {
            title: "Único",
            sku: product.sku,
            options: { Modelo: "Único" },
            manage_inventory: false,
            prices: [{ amount: product.eur, currency_code: "eur" }],
          },
        ],
        sales_channels: [{ id: salesChannelId }],
      })),
    },
  })

  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: API_KEY_TITLE, type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [salesChannelId] } })

  await createAdminUser(container)

  return { region_id: regionId, publishable_key: keys[0].token, sales_channel_id: salesChannelId, admin_email: ADMIN_EMAIL }
}

/** The admin user, made the way `medusa user -e ... -p ...` makes one. */
async function createAdminUser(container: MedusaContainer): Promise<void> {
  const auth = container.resolve(Modules.AUTH)
  const { result: users } = await createUsersWorkflow(container).run({
    input: { users: [{ email: ADMIN_EMAIL, first_name: "Admin", last_name: "Demo" }] },
  })
  const { authIdentity, error } = await auth.register("emailpass", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })
  if (error || !authIdentity) throw new Error(`Could not register the demo admin: ${error}`)
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: users[0].id } })
}
