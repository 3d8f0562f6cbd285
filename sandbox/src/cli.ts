import { CliError, parseArgs, USAGE } from "./cli-args"
import { startSandbox, type RunningSandbox } from "./index"
import { SandboxOptionsError } from "./options"
import { SandboxStateError } from "./persistence"

/**
 * The refpay-sandbox command: parse flags (and the REFPAY_SANDBOX_* variables), listen, print the three base URLs
 * on one line, and stop cleanly on SIGINT or SIGTERM (saving the state file, if any). Requiring this module runs it
 * (the bin launcher does exactly that).
 */
async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs(argv, process.env)
  } catch (err) {
    return exitWith(err)
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  let sandbox: RunningSandbox
  try {
    sandbox = await startSandbox({ ...parsed.options, logger: (line) => process.stderr.write(`${line}\n`) })
  } catch (err) {
    return exitWith(err)
  }
  process.stdout.write(
    `REFPAY sandbox listening: auth_url=${sandbox.authUrl} backoffice_url=${sandbox.backofficeUrl} payments_url=${sandbox.paymentsUrl}\n`
  )
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

function exitWith(err: unknown): void {
  const known = err instanceof CliError || err instanceof SandboxOptionsError || err instanceof SandboxStateError
  const code = (err as NodeJS.ErrnoException).code
  const message = known ? err.message : code === "EADDRINUSE" ? `Port in use: ${(err as Error).message}` : String(err)
  process.stderr.write(`refpay-sandbox: ${message}\n`)
  process.exitCode = 2
}

void main(process.argv.slice(2))
