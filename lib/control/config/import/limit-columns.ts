import "server-only";
import { normalizeLimit, type LimitDoc, type LimitFields } from "@/lib/control/config/document";
import { penaltyDocOf, storedPenaltySchema } from "@/lib/control/config/document/penalty-schema";
import type { Penalty } from "@/lib/shared/limit-types";
import { formatDuration } from "@/lib/shared/duration";
import { CALENDAR_PERIODS, type CalendarPeriod } from "@/lib/shared/calendar";

// stored as text (validated on the way in): a value no release wrote is a broken row
function periodOf(text: string): CalendarPeriod {
  const period = CALENDAR_PERIODS.find((p) => p === text);
  if (period === undefined) throw new Error(`a stored limit has period "${text}"`);
  return period;
}

// Limits between their document form and their stored columns. The columns keep only the
// fields a declaration sets (an override is partial), so export -> import changes nothing.
// The data layer types them by the database's own rows (lib/control/data/limit-rows.ts).

type Column<T> = Exclude<T, undefined> | null;

export interface LimitColumns {
  name: string;
  by: Column<LimitFields["by"]>;
  routePattern: string | null;
  algorithm: Column<LimitFields["algorithm"]>;
  limit: number | null;
  windowMs: bigint | null;
  period: string | null;
  timeZone: string | null;
  burst: number | null;
  action: Column<LimitFields["action"]>;
  maxDelayMs: bigint | null;
  mode: Column<LimitFields["mode"]>;
  onStoreFailure: Column<LimitFields["onStoreFailure"]>;
  consistency: Column<LimitFields["consistency"]>;
  syncEveryMs: number | null;
  /** a Json column: the penalty in ms (storedPenaltySchema), or null */
  penalty: Penalty | null;
  disabled: boolean | null;
  position: number;
}

/** The penalty column as the database returns it (Json), checked. */
export function penaltyColumn(value: unknown): Penalty | null {
  return value === null || value === undefined ? null : storedPenaltySchema.parse(value);
}

export function limitColumns(limit: LimitDoc, position: number): LimitColumns {
  const fields = normalizeLimit(limit);
  return {
    name: limit.name,
    by: fields.by ?? null,
    routePattern: fields.route ?? null,
    algorithm: fields.algorithm ?? null,
    limit: fields.limit ?? null,
    windowMs: fields.windowMs === undefined ? null : BigInt(fields.windowMs),
    period: fields.period ?? null,
    timeZone: fields.timeZone ?? null,
    burst: fields.burst ?? null,
    action: fields.action ?? null,
    maxDelayMs: fields.maxDelayMs === undefined ? null : BigInt(fields.maxDelayMs),
    mode: fields.mode ?? null,
    onStoreFailure: fields.onStoreFailure ?? null,
    consistency: fields.consistency ?? null,
    syncEveryMs: fields.syncEveryMs ?? null,
    penalty: fields.penalty ?? null,
    disabled: fields.disabled ?? null,
    position,
  };
}

/** The document form, in the order exports write fields; unset fields are left out. */
export function limitOfColumns(row: LimitColumns): LimitDoc {
  const doc: LimitDoc = { name: row.name };
  if (row.by !== null) doc.by = row.by;
  if (row.routePattern !== null) doc.route = row.routePattern;
  if (row.algorithm !== null) doc.algorithm = row.algorithm;
  if (row.limit !== null) doc.limit = row.limit;
  if (row.windowMs !== null) doc.window = formatDuration(Number(row.windowMs));
  if (row.period !== null) doc.period = periodOf(row.period);
  if (row.timeZone !== null) doc.timeZone = row.timeZone;
  if (row.burst !== null) doc.burst = row.burst;
  if (row.action !== null) doc.action = row.action;
  if (row.maxDelayMs !== null) doc.maxDelay = formatDuration(Number(row.maxDelayMs));
  if (row.mode !== null) doc.mode = row.mode;
  if (row.onStoreFailure !== null) doc.onStoreFailure = row.onStoreFailure;
  if (row.consistency !== null) doc.consistency = row.consistency;
  if (row.syncEveryMs !== null) doc.syncEvery = formatDuration(row.syncEveryMs);
  if (row.penalty !== null) doc.penalty = penaltyDocOf(row.penalty, formatDuration);
  if (row.disabled !== null) doc.disabled = row.disabled;
  return doc;
}
