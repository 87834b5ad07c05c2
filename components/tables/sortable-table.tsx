"use client";

import type { ReactNode } from "react";
import { useSort, type SortValue } from "@/components/tables/use-sort";
import { ScrollArea } from "@/components/tables/scroll-area";

// A console table whose headers sort it (use-sort.tsx: click, or Enter/Space on the
// focused header button; a second press reverses). The server renders the cells, this
// component only orders the rows, so server actions in cells keep working. Rows that tie
// keep the order the server gave them (Array.prototype.sort is stable).

export interface SortColumn {
  id: string;
  label: string;
  /** columns without a sort value (actions) get a plain header */
  sortable?: boolean;
  align?: "left" | "right";
  /** the row's name: rendered as <th scope="row"> */
  rowHeader?: boolean;
  className?: string;
}

export interface SortRow {
  id: string;
  testId?: string;
  className?: string;
  sort: Record<string, SortValue>;
  /** one per column, in column order */
  cells: ReactNode[];
}

export function SortableTable({
  columns,
  rows,
  testId,
  className,
  label,
}: {
  columns: SortColumn[];
  rows: SortRow[];
  testId?: string;
  className?: string;
  label?: string;
}) {
  const keys: Record<string, (row: SortRow) => SortValue> = {};
  for (const c of columns) if (c.sortable !== false) keys[c.id] = (row) => row.sort[c.id] ?? "";
  const { sorted, header } = useSort(rows, keys);
  return (
    <ScrollArea>
      <table data-testid={testId} className={className} aria-label={label}>
        {/* column classes also on <col>, so a fixed-layout table can size columns by class */}
        <colgroup>
          {columns.map((c) => (
            <col key={c.id} className={c.className} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((c) =>
              c.sortable === false ? (
                <th key={c.id} scope="col" align={c.align}>
                  {c.label}
                </th>
              ) : (
                header(c.id, c.label, c.align)
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={row.id} data-testid={row.testId} className={row.className}>
              {columns.map((c, i) =>
                c.rowHeader ? (
                  <th key={c.id} scope="row" className={c.className}>
                    {row.cells[i]}
                  </th>
                ) : (
                  <td key={c.id} className={c.className} align={c.align}>
                    {row.cells[i]}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
