// The small Portuguese shop that both `npm run demo` (./seed.ts) and the integration suites
// (integration-tests/fixtures/store.ts, imported by relative path) run on: a Portugal region in EUR with REFPAY and
// Medusa's system provider, one sales channel, a stock location in Lisbon, a flat shipping option, a few products
// and a publishable key. Lives in the demo app because `medusa build` there compiles only demo/; the plugin package
// never ships it (a shop seeds its own catalogue).
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, ProductStatus } from "@medusajs/framework/utils"

/** Names a seeded database is recognised by (the demo seeds once per database). */
export const SHOP_NAMES = {
  store: "Loja REFPAY (demo)",
  region: "Portugal",
  salesChannel: "Loja online",
  publishableKey: "Loja REFPAY (demo)",
} as const

/** The catalogue, in euros (USD prices only matter when the USD region is seeded). */
export const SHOP_PRODUCTS = [
  {
    title: "Caneca de cerâmica",
    handle: "caneca",
    sku: "CANECA-AZUL",
    description: "Caneca azul feita nas Caldas da Rainha.",
    eur: 19.99,
    usd: 21,
  },
  {
    title: "Azulejo pintado à mão",
    handle: "azulejo",
    sku: "AZULEJO-15",
    description: "Azulejo de 15 × 15 cm, padrão lisboeta.",
    eur: 24.9,
    usd: 27,
  },
  {
    title: "Lata de sardinhas",
    handle: "sardinhas",
    sku: "SARDINHAS-120",
    description: "Sardinhas em azeite, 120 g.",
    eur: 3.75,
    usd: 4,
  },
  {
    title: "Postal de Lisboa",
    handle: "postal",
    sku: "POSTAL-ELETRICO",
    description: "O elétrico 28 na Graça.",
    eur: 1.5,
    usd: 1.6,
  },
  // Ten cents: a few of them and a cent-priced total catch float drift in the amount sent to the platform.
  {
    title: "Autocolante do elétrico",
    handle: "autocolante",
    sku: "AUTOCOLANTE-28",
    description: "Autocolante redondo, 5 cm.",
    eur: 0.1,
    usd: 0.1,
  },
] as const

export type ShopProductHandle = (typeof SHOP_PRODUCTS)[number]["handle"]

/** Flat shipping. */
const SHIPPING_EUR = 4.99
const SHIPPING_USD = 5

export interface PortugueseShopOptions {
  /** The REFPAY accounts the regions offer (`pp_refpay_<id>`), e.g. ["pp_refpay_refpay"]. */
  refpayProviderIds: string[]
  /**
   * Also a United States region in USD that offers REFPAY (shipping and prices in USD), so the integration suites
   * can prove REFPAY refuses a non-euro cart. The demo leaves it out.
   */
  usdRegion?: boolean
}

export interface PortugueseShop {
  regionId: string
  /** Set when `usdRegion` was asked for. */
  usdRegionId: string | null
  salesChannelId: string
  publishableKey: string
  shippingOptionId: string
  stockLocationId: string
  /** The single variant of each product, by product handle. */
  variantIds: Record<ShopProductHandle, string>
}

/** Seeds the shop into an empty Medusa database. Not idempotent: the demo's seed checks for SHOP_NAMES first. */
export async function seedPortugueseShop(
  container: MedusaContainer,
  options: PortugueseShopOptions
): Promise<PortugueseShop> {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const withUsd = Boolean(options.usdRegion)
  const countries = withUsd ? ["pt", "us"] : ["pt"]

  const { result: channels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: SHOP_NAMES.salesChannel, description: "A loja de demonstração" }] },
  })
  const salesChannelId = channels[0].id

  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: SHOP_NAMES.region,
          currency_code: "eur",
          countries: ["pt"],
          payment_providers: [...options.refpayProviderIds, "pp_system_default"],
        },
        ...(withUsd
          ? [
              {
                name: "United States",
                currency_code: "usd",
                countries: ["us"],
                payment_providers: options.refpayProviderIds,
              },
            ]
          : []),
      ],
    },
  })
  await createTaxRegionsWorkflow(container).run({
    input: countries.map((country_code) => ({ country_code, provider_id: "tp_system" })),
  })

  const [store] = await container.resolve(Modules.STORE).listStores()
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: SHOP_NAMES.store,
        supported_currencies: [
          { currency_code: "eur", is_default: true },
          ...(withUsd ? [{ currency_code: "usd" }] : []),
        ],
        default_sales_channel_id: salesChannelId,
        default_region_id: regions[0].id,
      },
    },
  })

  const { result: profiles } = await createShippingProfilesWorkflow(container).run({
    input: { data: [{ name: "Standard", type: "default" }] },
  })
  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: "Entregas em Portugal",
    type: "shipping",
    service_zones: [
      { name: "Portugal", geo_zones: countries.map((country_code) => ({ type: "country" as const, country_code })) },
    ],
  })

  const { result: locations } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: [
        { name: "Armazém Lisboa", address: { city: "Lisboa", country_code: "PT", address_1: "Rua Augusta 1" } },
      ],
    },
  })
  const stockLocationId = locations[0].id
  await linkSalesChannelsToStockLocationWorkflow(container).run({
    input: { id: stockLocationId, add: [salesChannelId] },
  })
  await link.create([
    {
      [Modules.STOCK_LOCATION]: { stock_location_id: stockLocationId },
      [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
    },
    {
      [Modules.STOCK_LOCATION]: { stock_location_id: stockLocationId },
      [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
    },
  ])

  const { result: shippingOptions } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Envio standard (CTT)",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fulfillmentSet.service_zones[0].id,
        shipping_profile_id: profiles[0].id,
        type: { label: "Standard", description: "2-3 dias úteis", code: "standard" },
        prices: [
          { currency_code: "eur", amount: SHIPPING_EUR },
          ...(withUsd ? [{ currency_code: "usd", amount: SHIPPING_USD }] : []),
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: SHOP_PRODUCTS.map((product) => ({
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
            prices: [
              { amount: product.eur, currency_code: "eur" },
              ...(withUsd ? [{ amount: product.usd, currency_code: "usd" }] : []),
            ],
          },
        ],
        sales_channels: [{ id: salesChannelId }],
      })),
    },
  })

  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: SHOP_NAMES.publishableKey, type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [salesChannelId] } })

  return {
    regionId: regions[0].id,
    usdRegionId: withUsd ? regions[1].id : null,
    salesChannelId,
    publishableKey: keys[0].token,
    shippingOptionId: shippingOptions[0].id,
    stockLocationId,
    variantIds: Object.fromEntries(products.map((p) => [p.handle, p.variants[0].id])) as Record<
      ShopProductHandle,
      string
    >,
  }
}
