import { keysetPages } from "../keyset-pages"

/** A scan over 1..total that records what each read asked for. */
function numbers(total: number) {
  const reads: { after: number | undefined; take: number }[] = []
  const read = async (after: number | undefined, take: number) => {
    reads.push({ after, take })
    const from = (after ?? 0) + 1
    return Array.from({ length: Math.max(0, Math.min(take, total - from + 1)) }, (_, i) => from + i)
  }
  return { reads, read }
}

async function collect<T>(pages: AsyncGenerator<T[]>): Promise<T[][]> {
  const all: T[][] = []
  for await (const page of pages) all.push(page)
  return all
}

describe("keysetPages", () => {
  it("reads each page after the last row of the one before, and stops at a short page", async () => {
    const scan = numbers(7)
    expect(await collect(keysetPages(scan.read, 3, 100))).toEqual([[1, 2, 3], [4, 5, 6], [7]])
    expect(scan.reads).toEqual([
      { after: undefined, take: 3 },
      { after: 3, take: 3 },
      { after: 6, take: 3 },
    ])
  })

  it("reads no more than the limit, the last page cut to what is left", async () => {
    const scan = numbers(100)
    expect(await collect(keysetPages(scan.read, 4, 10))).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10],
    ])
    expect(scan.reads.map((r) => r.take)).toEqual([4, 4, 2])
  })

  it("yields no empty page: an empty scan is one read, an exact multiple one read more", async () => {
    const empty = numbers(0)
    expect(await collect(keysetPages(empty.read, 5, 100))).toEqual([])
    expect(empty.reads).toHaveLength(1)
    const exact = numbers(4)
    expect(await collect(keysetPages(exact.read, 2, 100))).toEqual([
      [1, 2],
      [3, 4],
    ])
    expect(exact.reads).toHaveLength(3)
  })
})
