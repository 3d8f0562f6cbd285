/**
 * Runs `task` over `items` with at most `limit` in flight, in order of start, and returns the results in the items'
 * order. A task that throws rejects the whole run: callers that must go on catch inside `task`.
 */
export async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker))
  return results
}
