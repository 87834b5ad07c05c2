import "server-only";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";

// The usage tables' time partitions (PostgreSQL declarative partitioning): created ahead by
// the rollup job, dropped whole by its retention, never emptied row by row. The SQL functions
// usage_ensure_partition and usage_drop_partitions come with the migration that made the
// tables partitioned; the names here are a fixed set, never input.

export type UsageTable =
  "UsageMinute" | "UsageMinutePair" | "UsageHour" | "UsageDay" | "UsageDenialMinute" | "UsageDenialHour";
export type PartitionGrain = "hour" | "day" | "week" | "month";

/**
 * Minutes by day, the short-lived pairs by hour, hours by week, days by month; the denials
 * per limit as the pairs (their minutes) and the hours.
 */
export const PARTITION_GRAIN: Record<UsageTable, PartitionGrain> = {
  UsageMinute: "day",
  UsageMinutePair: "hour",
  UsageHour: "week",
  UsageDay: "month",
  UsageDenialMinute: "hour",
  UsageDenialHour: "week",
};

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The start of the partition holding `ms` (UTC; weeks start on Monday, as date_trunc's). */
export function partitionStart(grain: PartitionGrain, ms: number): number {
  if (grain === "hour") return Math.floor(ms / HOUR) * HOUR;
  const day = Math.floor(ms / DAY);
  if (grain === "day") return day * DAY;
  // 1970-01-01 was a Thursday: three days after a Monday
  if (grain === "week") return (day - ((day + 3) % 7)) * DAY;
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** The start of the partition after the one starting at `start`. */
export function nextPartition(grain: PartitionGrain, start: number): number {
  if (grain === "hour") return start + HOUR;
  if (grain === "day") return start + DAY;
  if (grain === "week") return start + 7 * DAY;
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** The partition starts covering [from, to] (both ends included). */
export function partitionsOver(grain: PartitionGrain, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let at = partitionStart(grain, from); at <= to; at = nextPartition(grain, at)) starts.push(at);
  return starts;
}

/** Creates the partition of `table` starting at `start` unless it exists; returns its name. */
export async function ensurePartition(table: UsageTable, start: number): Promise<string> {
  const rows = await db().$queryRaw<Array<{ name: string }>>(
    Prisma.sql`SELECT usage_ensure_partition(${table}, ${PARTITION_GRAIN[table]}, ${utcAt(start)}) AS "name"`,
  );
  return rows[0]?.name ?? "";
}

/** Drops the partitions of `table` that end at or before `beforeMs`; returns how many. */
export async function dropPartitionsBefore(table: UsageTable, beforeMs: number): Promise<number> {
  const rows = await db().$queryRaw<Array<{ dropped: number }>>(
    Prisma.sql`SELECT usage_drop_partitions(${table}, ${utcAt(beforeMs)}) AS "dropped"`,
  );
  return Number(rows[0]?.dropped ?? 0);
}

export interface PartitionSize {
  table: UsageTable;
  partition: string;
  /** the partition's start */
  start: number;
  /** heap, indexes and TOAST */
  bytes: number;
  rows: number;
}

/** Every partition of the usage tables with its size on disk (the bench and the docs' sizing). */
export async function partitionSizes(): Promise<PartitionSize[]> {
  const rows = await db().$queryRaw<
    Array<{ parent: string; name: string; bound: string; bytes: number; rows: number }>
  >`
    SELECT p.relname AS "parent", c.relname AS "name", pg_get_expr(c.relpartbound, c.oid) AS "bound",
           pg_total_relation_size(c.oid)::float8 AS "bytes", greatest(c.reltuples, 0)::float8 AS "rows"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname IN ('UsageMinute', 'UsageMinutePair', 'UsageHour', 'UsageDay',
                         'UsageDenialMinute', 'UsageDenialHour')`;
  return rows.map((r) => {
    const from = /FROM \('([^']+)'\)/.exec(r.bound)?.[1] ?? "";
    return {
      table: r.parent as UsageTable,
      partition: r.name,
      start: Date.parse(`${from.replace(" ", "T")}Z`),
      bytes: r.bytes,
      rows: r.rows,
    };
  });
}

/** A partition index name as the catalog gives it: checked, as it goes into SQL unquoted by Prisma. */
function indexName(name: string): Prisma.Sql {
  if (!/^Usage\w+$/.test(name)) throw new Error(`unexpected usage index name ${name}`);
  return Prisma.raw(`"${name}"`);
}

/**
 * The primary-key indexes of `table`'s partitions that end at or before `beforeMs` (complete:
 * nothing writes into them any more) and are not packed yet (fillfactor 100), oldest first.
 */
export async function unpackedIndexes(table: UsageTable, beforeMs: number): Promise<string[]> {
  const rows = await db().$queryRaw<Array<{ name: string; bound: string }>>`
    SELECT ix.relname AS "name", pg_get_expr(c.relpartbound, c.oid) AS "bound"
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      JOIN pg_index x ON x.indrelid = c.oid AND x.indisprimary JOIN pg_class ix ON ix.oid = x.indexrelid
     WHERE p.relname = ${table} AND NOT coalesce(ix.reloptions, '{}') @> ARRAY['fillfactor=100']`;
  const endOf = (bound: string) => {
    const to = /TO \('([^']+)'\)/.exec(bound)?.[1] ?? "";
    return Date.parse(`${to.replace(" ", "T")}Z`);
  };
  return rows
    .map((r) => ({ name: r.name, end: endOf(r.bound) }))
    .filter((r) => r.end <= beforeMs)
    .sort((a, b) => a.end - b.end)
    .map((r) => r.name);
}

/**
 * Rebuilds a complete partition's primary key with full pages. Written a minute (or an hour)
 * at a time, each series' newest row lands in the middle of the key's order, and the pages
 * split in half: the key ends up about half empty, more bytes than the rows themselves
 * (docs/deployment.md). Rebuilt once nothing writes there, it is about half the size.
 * CONCURRENTLY: reads and writes go on meanwhile. Not inside a transaction.
 */
export async function packIndex(name: string): Promise<void> {
  const index = indexName(name);
  await db().$executeRaw`ALTER INDEX ${index} SET (fillfactor = 100)`;
  await db().$executeRaw`REINDEX INDEX CONCURRENTLY ${index}`;
}
