// The base both Medusa apps of this repository are configured from: the demo shop (./medusa-config.ts, the plugin
// from its packed tarball) and the integration tests' app (../medusa-config.ts, the plugin from source). It lives in
// demo/ because `medusa build` there compiles only what is under demo/; the test app imports it by relative path.
// What it holds is what any shop's medusa-config.ts holds for REFPAY (README, "Install in a Medusa 2.21 shop").
import type { ConfigModule, InputConfigWithArrayModules } from "@medusajs/framework/types"
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

// On import, so the .env files are read before the importing medusa-config.ts reads process.env.
loadEnv(process.env.NODE_ENV || "development", process.cwd())

type Modules = NonNullable<InputConfigWithArrayModules["modules"]>

export interface ShopConfigOptions {
  /** Where Medusa loads the REFPAY provider from: `medusa-payment-refpay/providers/refpay` in a shop. */
  refpayProvider: string
  /**
   * Seller accounts, one REFPAY registration each (`pp_refpay_<account>`, reading its own `REFPAY_<ACCOUNT>_*`
   * variables first); none: the single registration `refpay` (`pp_refpay_refpay`).
   */
  refpayAccounts?: string[]
  /** The app's plugins (a shop lists `medusa-payment-refpay` here). */
  plugins?: InputConfigWithArrayModules["plugins"]
  /** Modules besides the payment module: e-mail, the plugin's own module when loaded from source, Redis, ... */
  modules?: Modules
  /** Added to projectConfig (Redis, worker mode). */
  projectConfig?: Partial<ConfigModule["projectConfig"]>
}

export function shopConfig(options: ShopConfigOptions): ConfigModule {
  const accounts = options.refpayAccounts ?? []
  const refpay = accounts.length
    ? accounts.map((account) => ({ resolve: options.refpayProvider, id: account, options: { account } }))
    : // Every setting comes from its REFPAY_* environment variable (README, "Settings").
      [{ resolve: options.refpayProvider, id: "refpay", options: {} }]

  return defineConfig({
    projectConfig: {
      databaseUrl: process.env.DATABASE_URL,
      http: {
        storeCors: process.env.STORE_CORS || "http://localhost:8000",
        adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
        authCors: process.env.AUTH_CORS || "http://localhost:9000",
        // Local fallbacks only: `npm run demo` and a real shop set both.
        jwtSecret: process.env.JWT_SECRET || "local-jwt-secret-not-secret",
        cookieSecret: process.env.COOKIE_SECRET || "local-cookie-secret-not-secret",
      },
      // Both apps run over plain http on localhost (the demo with `medusa start`, production mode), where a Secure
      // session cookie would never be set and the admin could not log in. A real shop serves HTTPS and leaves this out.
      cookieOptions: { secure: false, sameSite: "lax" },
      ...options.projectConfig,
    },
    plugins: options.plugins ?? [],
    modules: [{ resolve: "@medusajs/medusa/payment", options: { providers: refpay } }, ...(options.modules ?? [])],
  })
}
