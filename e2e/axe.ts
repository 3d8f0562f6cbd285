// An accessibility check of one part of a page with axe-core (from npm), WCAG 2.1 A and AA rules: buttons named,
// colour contrast, ARIA used as specified. The script is injected into the page under test, so it runs on the DOM and
// styles chromium really rendered.
import type { Page } from "playwright-core"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const AXE_SOURCE = (require("axe-core") as { source: string }).source

export interface AxeFinding {
  id: string
  impact: string | null
  targets: string[]
}

/** axe's violations inside `selector` (none expected): each rule's id, impact and the elements it flagged. */
export async function axeViolations(page: Page, selector: string): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE })
  return page.evaluate(async (context) => {
    const axe = (window as unknown as { axe: any }).axe
    const result = await axe.run(context, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    })
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact ?? null,
      targets: v.nodes.map((n: any) => String(n.target)),
    }))
  }, selector)
}
