"use strict"
// The browser the e2e tests drive: Debian's chromium-headless-shell package (the chromium source package's "old
// headless" build, the binary Playwright itself runs headless tests in), never a downloaded browser build.
// playwright-core (an npm devDependency that ships no browser) talks to it over CDP. The shell renders with the same
// Blink as the full browser, without the browser's UI layers: the browser phase used 82 CPU-seconds with it against
// 90 and 92 with Debian's full `chromium` (the same 21 tests, 2026-11-28).
//
//   const { launchChromium } = require("./browser")
//   const browser = await launchChromium()        // installs the shell with apt-get when missing (as root)
//
// Plain Node on purpose: `node scripts/lib/browser.js` installs and prints the browser's path and version.

const { spawnSync } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { ensureDebianProgram, findExecutable } = require("./system-tools")

const CHROMIUM_PATHS = ["/usr/bin/chromium-headless-shell"]

/** The switches every launch uses: headless, no network of its own (updates, sync, QUIC), no first-run UI. */
const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]

function findChromium() {
  return findExecutable("CHROMIUM_PATH", CHROMIUM_PATHS)
}

/** Installs Debian's chromium-headless-shell package when it is missing; returns the executable's path. */
function ensureChromium(log = console.log) {
  return ensureDebianProgram({
    command: "chromium-headless-shell",
    pkg: "chromium-headless-shell",
    envVar: "CHROMIUM_PATH",
    candidates: CHROMIUM_PATHS,
    log,
    recommends: true,
  })
}

/**
 * Launches chromium through playwright-core with a fresh profile folder, removed when the browser closes.
 * @param {{ log?: (line: string) => void, extraArgs?: string[] }} options
 * @returns {Promise<import("playwright-core").BrowserContext & { close(): Promise<void> }>} a persistent context
 */
async function launchChromium(options = {}) {
  const executablePath = ensureChromium(options.log)
  const { chromium } = require("playwright-core")
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "refpay-chromium-"))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    // Playwright adds its own defaults; ours go last. No proxy: everything the tests open is on loopback.
    args: [...LAUNCH_ARGS, ...(options.extraArgs ?? [])],
    viewport: { width: 1280, height: 900 },
    locale: "pt-PT",
    timezoneId: "Europe/Lisbon",
  })
  const close = context.close.bind(context)
  context.close = async () => {
    try {
      await close()
    } finally {
      fs.rmSync(userDataDir, { recursive: true, force: true })
    }
  }
  return context
}

module.exports = { ensureChromium, findChromium, launchChromium, LAUNCH_ARGS }

if (require.main === module) {
  const executable = ensureChromium()
  const version = spawnSync(executable, ["--version"], { encoding: "utf8" }).stdout.trim()
  console.log(`${executable}: ${version}`)
}
