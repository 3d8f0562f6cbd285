// One config, two kinds of suites, chosen by TEST_TYPE (set by scripts/test.js):
//   unit        - src/**/__tests__/*.unit.spec.ts, storefront-kit/src/**/__tests__/*.unit.spec.ts,
//                 sandbox/**/__tests__/*.spec.ts (sandbox over loopback, no DB) and
//                 scripts/**/__tests__/*.spec.ts (the test and demo tooling)
//   integration - integration-tests/**/*.spec.ts (a real Medusa app on a real PostgreSQL)
//   e2e         - e2e/**/*.e2e.spec.ts (npm run demo's stack driven in Debian's chromium)
//   cluster     - integration-tests/cluster/**/*.spec.ts (the demo app as several servers on one PostgreSQL and one
//                 Redis, under load, with servers and Redis killed)
const swc = ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true, tsx: true }, target: "es2021" } }]

const unit = [
  "<rootDir>/src/**/__tests__/**/*.unit.spec.ts",
  "<rootDir>/sandbox/**/__tests__/**/*.spec.ts",
  "<rootDir>/scripts/**/__tests__/**/*.spec.ts",
  "<rootDir>/storefront-kit/src/**/__tests__/**/*.unit.spec.ts",
]
const integration = ["<rootDir>/integration-tests/**/*.spec.ts"]
// `npm test -- --starter` adds the starter suites (Medusa's dtc-starter installed and built: minutes).
const e2e = [
  "<rootDir>/e2e/**/*.e2e.spec.ts",
  ...(process.env.REFPAY_E2E_STARTER === "1" ? ["<rootDir>/e2e/**/*.starter.spec.ts"] : []),
]
const cluster = ["<rootDir>/integration-tests/cluster/**/*.spec.ts"]

const type = process.env.TEST_TYPE
module.exports = {
  transform: { "^.+\\.[jt]sx?$": swc },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  modulePathIgnorePatterns: [
    "<rootDir>/dist/",
    "<rootDir>/.medusa/",
    "<rootDir>/sandbox/dist/",
    "<rootDir>/.demo/",
    "<rootDir>/demo/",
  ],
  setupFiles: ["<rootDir>/integration-tests/setup.js"],
  testMatch:
    type === "unit"
      ? unit
      : type === "integration"
        ? integration
        : type === "e2e"
          ? e2e
          : type === "cluster"
            ? cluster
            : [...unit, ...integration],
  // The cluster suites run in their own phase (they start their own stack): never as integration suites.
  testPathIgnorePatterns: ["/node_modules/", ...(type === "cluster" ? [] : ["<rootDir>/integration-tests/cluster/"])],
  // Unit suites start sandboxes and child processes: 5 s (jest's default) is too short on a busy 2-core machine.
  ...(type === "unit" ? { testTimeout: 30_000 } : {}),
  ...(type === "e2e"
    ? {
        testTimeout: 180_000,
        globalSetup: "<rootDir>/e2e/global-setup.js",
        globalTeardown: "<rootDir>/e2e/global-teardown.js",
      }
    : {}),
  ...(type === "cluster" ? { testTimeout: 900_000 } : {}),
}
