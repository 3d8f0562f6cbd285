import fs from "node:fs"
import net from "node:net"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require("../lib/postgres") as { freePort(): Promise<number> }

const [ephemeralLow] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number)

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve(server))
  })
}

describe("a free port for a server the run starts", () => {
  it("is below the kernel's ephemeral range, so no outgoing connection takes it first, and a server can listen on it", async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()))
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024)
      expect(port).toBeLessThan(ephemeralLow!)
    }
    const server = await listen(ports[0]!)
    await new Promise((resolve) => server.close(resolve))
  })

  it("passes over a port that is taken and tries another", async () => {
    const taken = await listen(await freePort())
    const takenPort = (taken.address() as net.AddressInfo).port
    // freePort draws ports from 10,000 up to the ephemeral range: the first draw lands on the taken port.
    const first = 10_000
    const draw = (port: number) => (port - first + 0.5) / (ephemeralLow! - first)
    const other = takenPort + 1 < ephemeralLow! ? takenPort + 1 : takenPort - 1
    const random = jest.spyOn(Math, "random").mockReturnValueOnce(draw(takenPort)).mockReturnValueOnce(draw(other))
    try {
      expect(await freePort()).toBe(other)
      expect(random).toHaveBeenCalledTimes(2)
    } finally {
      random.mockRestore()
      await new Promise((resolve) => taken.close(resolve))
    }
  })
})
