import { request } from "undici"

type Config = { headers?: Record<string, string> }

/** `config` is `{ headers }`, typed loosely like the fixtures' own api type. */
export interface ShopApi {
  get(url: string, config?: unknown): Promise<{ data: any; status: number }>
  post(url: string, body?: unknown, config?: unknown): Promise<{ data: any; status: number }>
}

/**
 * The axios-shaped client the integration fixtures take (`api.get(url, config)`, `api.post(url, body, config)`),
 * over undici's keep-alive global dispatcher, always to 127.0.0.1. A status >= 400 throws with the answer's body.
 */
export function loopbackApi(port: number): ShopApi {
  const origin = `http://127.0.0.1:${port}`
  const call = async (method: "GET" | "POST", url: string, body: unknown, config?: unknown) => {
    const headers = (config as Config | undefined)?.headers
    const response = await request(`${origin}${url}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.body.text()
    if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${text.slice(0, 500)}`)
    return { status: response.statusCode, data: text ? JSON.parse(text) : undefined }
  }
  return {
    get: (url, config) => call("GET", url, undefined, config),
    post: (url, body, config) => call("POST", url, body ?? {}, config),
  }
}

/** A sandbox control (`/__sandbox/...`); throws on >= 400. */
export async function sandboxControl<T = any>(
  sandboxUrl: string,
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown
): Promise<T> {
  const response = await request(`${sandboxUrl}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.body.text()
  if (response.statusCode >= 400)
    throw new Error(`sandbox ${method} ${path}: ${response.statusCode} ${text.slice(0, 500)}`)
  return (text ? JSON.parse(text) : undefined) as T
}
