import type { ReactNode } from "react";
import type { SortColumn, SortRow } from "@/components/tables/sortable-table";
import type { SortValue } from "@/components/tables/use-sort";

// A SortableTable's columns as one list: each column's header, sort value and cell together,
// instead of three lists (columns, sort keys, cells) matched by position. Server-side: the
// cells are rendered here and only the finished rows reach the client table.

export interface ColumnDef<T> extends Omit<SortColumn, "sortable"> {
  /** the item's sort value; a column without one has a plain header */
  sort?: (item: T) => SortValue;
  cell: (item: T) => ReactNode;
}

/** The columns as SortableTable takes them. */
export function tableColumns<T>(defs: readonly ColumnDef<T>[]): SortColumn[] {
  return defs.map(({ sort, cell: _cell, ...column }) =>
    sort === undefined ? { ...column, sortable: false } : column,
  );
}

/** One row per item: its sort values and cells, in the columns' order. */
export function tableRows<T>(
  defs: readonly ColumnDef<T>[],
  items: readonly T[],
  row: (item: T) => Omit<SortRow, "sort" | "cells">,
): SortRow[] {
  return items.map((item) => {
    const sort: Record<string, SortValue> = {};
    for (const def of defs) if (def.sort) sort[def.id] = def.sort(item);
    return { ...row(item), sort, cells: defs.map((def) => def.cell(item)) };
  });
}
