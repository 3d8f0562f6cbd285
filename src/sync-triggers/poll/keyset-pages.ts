/**
 * Reads a scan a page at a time, each page starting after the last row of the one before (keyset paging: no query's
 * cost grows with the backlog, and a row whose processing failed is not read again in the same scan), until a page
 * comes back short or `limit` rows have been read.
 */
export async function* keysetPages<Row>(
  read: (after: Row | undefined, take: number) => Promise<Row[]>,
  pageSize: number,
  limit: number
): AsyncGenerator<Row[]> {
  let after: Row | undefined
  for (let taken = 0; taken < limit;) {
    const take = Math.min(pageSize, limit - taken)
    const page = await read(after, take)
    if (page.length > 0) yield page
    if (page.length < take) return
    taken += page.length
    after = page[page.length - 1]
  }
}
