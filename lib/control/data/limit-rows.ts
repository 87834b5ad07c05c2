import "server-only";
import type { LimitDoc } from "@/lib/control/config/document";
import { limitColumns, limitOfColumns, penaltyColumn } from "@/lib/control/config/import/limit-columns";
import { Prisma, type Limit } from "@/lib/generated/prisma/client";

// Limits between their document form and their rows (the mapping: limit-columns.ts). Typed
// by Prisma's own row both ways, so a column added to the table and not to the mapping, or
// the reverse, fails to compile. The penalty is a Json column: written as an object or
// database NULL, read back through its schema.

type LimitRow = Omit<
  Limit,
  "id" | "planId" | "tenantId" | "apiKeyId" | "routeId" | "createdAt" | "updatedAt"
>;

/** A row to write. */
export type LimitRowData = Omit<LimitRow, "penalty"> & {
  penalty: Prisma.InputJsonObject | typeof Prisma.DbNull;
};

export function limitToRow(limit: LimitDoc, position: number): LimitRowData {
  const { penalty, ...columns } = limitColumns(limit, position);
  return { ...columns, penalty: penalty === null ? Prisma.DbNull : { ...penalty } };
}

export function rowToLimit(row: LimitRow): LimitDoc {
  return limitOfColumns({ ...row, penalty: penaltyColumn(row.penalty) });
}

export function rowsToLimits(rows: LimitRow[]): LimitDoc[] {
  return [...rows].sort((a, b) => a.position - b.position).map(rowToLimit);
}
