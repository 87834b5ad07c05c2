"use client";

import { useState, type ReactNode } from "react";

// Click-to-sort for the console's tables: one column at a time, numbers high to low first,
// text A to Z first; a second click reverses. The header says the order (aria-sort).

export type SortValue = number | string;

export interface Sorting<T> {
  sorted: T[];
  header: (column: string, label: ReactNode, align?: "left" | "right") => ReactNode;
}

export function useSort<T>(rows: readonly T[], columns: Record<string, (row: T) => SortValue>): Sorting<T> {
  const [by, setBy] = useState<{ column: string; desc: boolean } | null>(null);
  const key = by ? columns[by.column] : undefined;
  const sorted = key
    ? [...rows].sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        const order =
          typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
        return by?.desc ? -order : order;
      })
    : [...rows];
  const header = (column: string, label: ReactNode, align: "left" | "right" = "left") => {
    const active = by?.column === column;
    const numeric = typeof (rows[0] ? columns[column]?.(rows[0]) : "") === "number";
    const next = { column, desc: active ? !by.desc : numeric };
    return (
      <th
        key={column}
        align={align}
        scope="col"
        aria-sort={active ? (by.desc ? "descending" : "ascending") : "none"}
      >
        <button type="button" className="sort-button" onClick={() => setBy(next)}>
          {label}
          <span aria-hidden="true">{active ? (by.desc ? " ▼" : " ▲") : " ↕"}</span>
        </button>
      </th>
    );
  };
  return { sorted, header };
}
