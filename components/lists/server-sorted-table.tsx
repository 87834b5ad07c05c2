import Link from "next/link";
import type { ReactNode } from "react";
import { listHref, type ListState } from "@/components/lists/list-href";

// A table sorted on the server: each header is a link to the same list sorted by that
// column (again to reverse), back to page 1. The header says the order (aria-sort).

export interface ServerColumn {
  id: string;
  label: string;
  /** the direction a first click sorts in: text A to Z, numbers highest first */
  first: "asc" | "desc";
  align?: "left" | "right";
  /** false: a plain header (a sparkline, the actions) */
  sortable?: false;
}

export interface ServerRow {
  id: string;
  testId?: string;
  cells: ReactNode[];
}

export function ServerSortedTable({
  path,
  state,
  sort,
  dir,
  columns,
  rows,
  testId,
}: {
  path: string;
  state: ListState;
  sort: string;
  dir: "asc" | "desc";
  columns: ServerColumn[];
  rows: ServerRow[];
  testId?: string;
}) {
  return (
    <table data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c) => {
            if (c.sortable === false)
              return (
                <th key={c.id} scope="col" align={c.align}>
                  {c.label}
                </th>
              );
            const active = c.id === sort;
            const next = active ? (dir === "asc" ? "desc" : "asc") : c.first;
            return (
              <th
                key={c.id}
                scope="col"
                align={c.align}
                aria-sort={active ? (dir === "desc" ? "descending" : "ascending") : "none"}
              >
                <Link
                  className="sort-link"
                  data-testid={`sort-${c.id}`}
                  href={listHref(path, state, { sort: c.id, dir: next, page: undefined })}
                >
                  {c.label}
                  <span aria-hidden="true">{active ? (dir === "desc" ? " ▼" : " ▲") : " ↕"}</span>
                </Link>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-testid={row.testId}>
            {row.cells.map((cell, i) => (
              <td key={columns[i]?.id ?? i} align={columns[i]?.align}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
