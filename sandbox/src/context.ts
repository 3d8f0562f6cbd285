import type { IncomingMessage } from "node:http"
import type { RequestNote } from "./request-log"
import type { Reply } from "./reply"
import type { SandboxState } from "./state"

/** Everything a handler needs about one request; the body has already been read (within the size limit). */
export interface RequestContext {
  req: IncomingMessage
  path: string
  /** Raw query string without "?", "" when absent. */
  query: string
  body: Buffer
  note: RequestNote
  state: SandboxState
}

/** Token checks and signing are asynchronous (jose); everything after them runs without a pause. */
export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>
