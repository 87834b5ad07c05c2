import "server-only";
import type { LimitDoc } from "@/lib/control/config/document";
import { limitColumns, limitOfColumns } from "@/lib/control/config/import/limit-columns";
import type { Limit } from "@/lib/generated/prisma/client";

// Limits between their document form and their rows (the mapping: limit-columns.ts). Typed
// by Prisma's own row both ways, so a column added to the table and not to the mapping, or
// the reverse, fails to compile.

export type LimitRowData = Omit<
  Limit,
  "id" | "planId" | "tenantId" | "apiKeyId" | "routeId" | "createdAt" | "updatedAt"
>;

export function limitToRow(limit: LimitDoc, position: number): LimitRowData {
  return limitColumns(limit, position);
}

export function rowToLimit(row: LimitRowData): LimitDoc {
  return limitOfColumns(row);
}

export function rowsToLimits(rows: LimitRowData[]): LimitDoc[] {
  return [...rows].sort((a, b) => a.position - b.position).map(rowToLimit);
}
