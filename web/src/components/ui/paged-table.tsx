import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Pager } from './pager';

export interface PagedTableColumn<Row> {
  header: string;
  /** Classes of the column's header and cells (alignment, width). */
  className?: string;
  /** Classes of the column's cells only. */
  cellClassName?: string;
  cell: (row: Row) => ReactNode;
  /** Tooltip of a cell whose text may be cut. */
  title?: (row: Row) => string | undefined;
}

/** A server-paged table: header row, one line per item (dimmed while the next page loads), and the pager below. */
export function PagedTable<Row>({
  columns,
  rows,
  rowKey,
  dimmed,
  offset,
  limit,
  total,
  onOffsetChange,
  pagerLabel,
}: {
  columns: PagedTableColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  dimmed: boolean;
  offset: number;
  limit: number;
  total: number;
  onOffsetChange: (offset: number) => void;
  pagerLabel: string;
}) {
  return (
    <div className="grid gap-3">
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-left text-sm">
          <thead className="bg-muted/60 text-xs text-muted-foreground">
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col" className={cn('px-3 py-2 font-medium', column.className)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={dimmed ? 'divide-y opacity-60' : 'divide-y'}>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header} className={cn('px-3 py-2', column.className, column.cellClassName)} title={column.title?.(row)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager offset={offset} limit={limit} total={total} onChange={onOffsetChange} label={pagerLabel} />
    </div>
  );
}
