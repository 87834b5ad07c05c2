import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * A time as the usage tables hold it: TIMESTAMP(3) of UTC wall time, as Prisma writes them.
 * Text cast to timestamp (the zone letter is ignored) is a constant the planner sees; a Date
 * parameter arrives with a zone and makes the comparison cast every row instead.
 */
export function utcAt(ms: number): Prisma.Sql {
  return Prisma.sql`${new Date(ms).toISOString()}::timestamp`;
}
