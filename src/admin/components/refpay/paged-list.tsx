import { Table, Text } from "@medusajs/ui"
import type { Dispatch, ReactNode, SetStateAction } from "react"
import { useTranslation } from "react-i18next"

/** The one row of a list that has nothing in it, across all its columns. */
export const EmptyRow = ({ columns, testId, children }: { columns: number; testId: string; children: ReactNode }) => (
  <Table.Row>
    <td colSpan={columns} className="px-6">
      <Text size="small" className="text-ui-fg-muted py-2" data-testid={testId}>
        {children}
      </Text>
    </td>
  </Table.Row>
)

/** Turning the pages of a list read `pageSize` rows at a time; nothing while the whole list fits on one page. */
export const Pager = ({
  count,
  pageSize,
  page,
  setPage,
}: {
  count: number
  pageSize: number
  page: number
  setPage: Dispatch<SetStateAction<number>>
}) => {
  const { t } = useTranslation()
  if (count <= pageSize) return null
  const pageCount = Math.ceil(count / pageSize)
  return (
    <Table.Pagination
      count={count}
      pageSize={pageSize}
      pageIndex={page}
      pageCount={pageCount}
      canPreviousPage={page > 0}
      canNextPage={page + 1 < pageCount}
      previousPage={() => setPage((p) => Math.max(0, p - 1))}
      nextPage={() => setPage((p) => p + 1)}
      translations={{
        of: t("refpay.common.pager.of"),
        results: t("refpay.common.pager.results"),
        pages: t("refpay.common.pager.pages"),
        prev: t("refpay.common.pager.prev"),
        next: t("refpay.common.pager.next"),
      }}
    />
  )
}
