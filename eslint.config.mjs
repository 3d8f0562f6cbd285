// ESLint (typescript-eslint, react-hooks for the admin UI); formatting is Prettier's (.prettierrc.json), not lint's.
import js from "@eslint/js"
import reactHooks from "eslint-plugin-react-hooks"
import globals from "globals"
import tseslint from "typescript-eslint"

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
      "storefront-kit/dist/",
      "sandbox/dist/",
      ".medusa/",
      ".demo/",
      "demo/node_modules/",
      "demo/.medusa/",
      "demo/storefront/",
      ".test-artifacts/",
      "coverage/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      // Unused names are errors, except the `_`-prefixed ones that say "deliberately unused".
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    files: ["src/admin/**/*.{ts,tsx}", "storefront-kit/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // One zod import per layer (CONTRIBUTING.md): Medusa-layer code uses the zod Medusa pins, through its re-export.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/lib/refpay/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "zod", message: 'Import { z } from "@medusajs/framework/zod" here (CONTRIBUTING.md).' }] },
      ],
    },
  },
  {
    // The platform client and the sandbox know nothing of Medusa; they import "zod" itself.
    files: ["src/lib/refpay/**/*.ts", "sandbox/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@medusajs/*"], message: "No Medusa import here: see CONTRIBUTING.md." }] },
      ],
    },
  },
  {
    // Tests and tools talk to untyped JSON answers.
    files: ["**/__tests__/**", "integration-tests/**", "e2e/**", "bench/**", "scripts/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Plain-Node scripts are CommonJS.
    files: ["**/*.js", "**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  }
)
