// One Redis command over loopback, for what a test must see in Redis itself (a lock's lease) rather than through
// Medusa. Plain RESP on a socket: the project ships no Redis client of its own, and this needs one integer reply.
import net from "node:net"

/** Seconds left on `key` (Redis TTL: -2 when the key does not exist, -1 when it never expires). */
export function redisTtl(port: number, key: string): Promise<number> {
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
      else reject(new Error(`redis TTL ${key}: ${reply.trim()}`))
    })
    socket.write(`*2\r\n$3\r\nTTL\r\n$${Buffer.byteLength(key)}\r\n${key}\r\n`)
  })
}
