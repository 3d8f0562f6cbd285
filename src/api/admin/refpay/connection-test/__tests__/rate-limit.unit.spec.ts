import { SlidingWindowLimit } from "../rate-limit"

describe("sliding window limit", () => {
  it("allows 5 calls a minute per key, then tells how long to wait, and frees a slot as the oldest call ages out", () => {
    let now = 1_000_000
    const limit = new SlidingWindowLimit(5, 60_000, () => now)
    for (let i = 0; i < 5; i++) {
      expect(limit.take("user:a")).toMatchObject({ allowed: true, remaining: 4 - i })
      now += 1_000
    }
    expect(limit.take("user:a")).toEqual({ allowed: false, retryAfterSeconds: 55, remaining: 0 })
    expect(limit.take("user:b").allowed).toBe(true)
    now = 1_000_000 + 60_000
    expect(limit.take("user:a").allowed).toBe(true)
    expect(limit.take("user:a").allowed).toBe(false)
  })

  it("never asks to wait less than a second", () => {
    let now = 0
    const limit = new SlidingWindowLimit(1, 1_000, () => now)
    limit.take("k")
    now = 999
    expect(limit.take("k").retryAfterSeconds).toBe(1)
  })
})
