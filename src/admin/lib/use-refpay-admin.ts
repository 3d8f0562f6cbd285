import { useEffect, useState } from "react"
import { refpayAdmin, type AdminAnswer } from "./refpay-admin-api"

type Query = Record<string, string | number | undefined>

/**
 * What a section shows from a GET /admin/refpay route, asked again whenever the path or the query change or
 * `refreshKey` moves. The last answer stays on screen while the next one loads (turning a page does not blank the
 * table), and an answer overtaken by a newer request, or arriving after the section left the page, is dropped.
 */
export function useRefpayGet<T>(
  path: string,
  query: Query = {},
  refreshKey = 0
): { data: T | null; error: string | null } {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<string | null>(null)
  // A new object every render: its content, not its identity, says whether to ask again.
  const queryKey = JSON.stringify(query)

  useEffect(() => {
    let current = true
    refpayAdmin<T>("GET", path, JSON.parse(queryKey) as Query)
      .then((answer) => {
        if (!current) return
        if (answer.ok) {
          setData(answer.body)
          setError(null)
        } else setError(answer.message)
      })
      .catch((e: Error) => current && setError(e.message))
    return () => {
      current = false
    }
  }, [path, queryKey, refreshKey])

  return { data, error }
}

/**
 * A call the shop owner starts with a button: `running` while it is under way (for the button's spinner), then its
 * body, or null and `error` saying why it failed. What the last call showed stays until the caller replaces it.
 */
export function useRefpayCall<T>(): {
  running: boolean
  error: string | null
  run: (call: () => Promise<AdminAnswer<T>>) => Promise<T | null>
} {
  const [running, setRunning] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const run = async (call: () => Promise<AdminAnswer<T>>): Promise<T | null> => {
    setRunning(true)
    setError(null)
    try {
      const answer = await call()
      if (answer.ok) return answer.body
      setError(answer.message)
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setRunning(false)
    }
    return null
  }

  return { running, error, run }
}
