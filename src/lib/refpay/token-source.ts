import type { TokenGrant } from "./schemas"

export type { TokenGrant }

/**
 * Something that obtains a brand-new access token from the platform. There is no refresh-token endpoint (spec 5.6):
 * every refresh is a new call to the token endpoint. The TokenCache decides when to call it.
 */
export interface TokenSource {
  /** Names the interface in errors and logs, e.g. "T1 token request". */
  readonly operation: string
  fetchToken(): Promise<TokenGrant>
}
