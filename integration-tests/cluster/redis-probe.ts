// Redis commands over loopback, for what a test must see in Redis itself (a lock's lease, Medusa's event queue)
// rather than through Medusa. Plain RESP on a socket: the project ships no Redis client of its own, and these need
// one integer reply each.
import net from "node:net"

/** One command with an integer reply (TTL, LLEN, ZCARD). */
export function redisInteger(port: number, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port })
    let reply = ""
    socket.setTimeout(5_000, () => socket.destroy(new Error("redis: no answer within 5 s")))
    socket.on("error", reject)
    socket.on("data", (chunk) => {
      reply += chunk.toString("utf8")
      if (!reply.endsWith("\r\n")) return
      socket.end()
      if (reply.startsWith(":")) resolve(Number(reply.slice(1).trim()))
      else reject(new Error(`redis ${args.join(" ")}: ${reply.trim()}`))
    })
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`)
  })
}

/** Seconds left on `key` (Redis TTL: -2 when the key does not exist, -1 when it never expires). */
export function redisTtl(port: number, key: string): Promise<number> {
  return redisInteger(port, ["TTL", key])
}

/** How many keys match `pattern` (counted inside Redis, one integer reply). */
export function redisKeyCount(port: number, pattern: string): Promise<number> {
  return redisInteger(port, ["EVAL", "return #redis.call('KEYS', ARGV[1])", "0", pattern])
}

/**
 * Medusa's Redis event bus queue (BullMQ 5, prefix "RedisEventBusService", queue "events-queue"): the lists and
 * sorted sets that hold its unfinished jobs. A webhook to Medusa's own webhook route is an event delayed by 5 s;
 * it is done when it has left all of them.
 */
const EVENT_QUEUE = "RedisEventBusService:events-queue"

/**
 * Events not yet processed: delayed (Medusa's webhook route's 5 s, a retry's backoff), waiting, prioritized, paused
 * or running.
 */
export async function pendingEvents(port: number): Promise<number> {
  const counts = await Promise.all([
    redisInteger(port, ["ZCARD", `${EVENT_QUEUE}:delayed`]),
    redisInteger(port, ["ZCARD", `${EVENT_QUEUE}:prioritized`]),
    redisInteger(port, ["LLEN", `${EVENT_QUEUE}:wait`]),
    redisInteger(port, ["LLEN", `${EVENT_QUEUE}:paused`]),
    redisInteger(port, ["LLEN", `${EVENT_QUEUE}:active`]),
  ])
  return counts.reduce((a, b) => a + b, 0)
}
