import "server-only";
import { encodeKeyPart } from "@/lib/check/limiter/keys";
import type { Outcome } from "@/lib/usage/types";

// Redis layout of usage data. Every key of one tenant carries the hash tag {u:<tenant>}, so
// one flush writes a tenant's keys in one pipeline on Redis Cluster too. `ns` isolates a
// deployment or a test run; it holds no braces, so the tag stays the key's first {...}.
//
//   <ns>{u:<tenant>}:p:<minute>  HASH  "<keyId>|<route>|<a|r|s|d>" -> "<second>:<count>,..." (pair-series.ts);
//                                      lease counts alike under "la|lr|ld|lu" (lease-fields.ts), due
//                                      ones in the minute a lease expires, possibly still ahead
//   <ns>{u:<tenant>}:s:<minute>  HASH  "<second 0-59>|<keyId>|<route>|<a|r|s|d>" -> count: the
//                                      layout before :p:, still read (servers of an older
//                                      version, and data written before an upgrade)
//   <ns>{u:<tenant>}:j:<minute>  HASH  <app process> -> JSON: that minute's busiest subjects'
//                                      per-second counts per route, and the others' (subject-series.ts)
//   <ns>{u:<tenant>}:o:<minute>  ZSET  "k:<keyId>" | "s:<subject>" -> rejected, top N kept
//   <ns>{u:<tenant>}:x:<minute>  ZSET  JSON ["<keyId>","<route>","<subject>"] -> rejected, top N kept
//   <ns>{u:<tenant>}:c:<minute>  HASH  degraded cause (redis_timeout, local_overload...) -> count
//   <ns>{u:<tenant>}:l:<minute>  HASH  JSON ["<keyId>","<route>","<limit>","<level>","<by>"] ->
//                                      rejections that limit denied (limit-denials.ts; rolled up
//                                      into PostgreSQL: denial-writer.ts)
//   <ns>{u:<tenant>}:rd / :rx    LIST  latest decisions / denials, JSON, newest first, capped
//   <ns>{u:<tenant>}:f           HASH  <recorder> -> the sequence number of its last flush of this
//                                      tenant's counts, written in the same transaction as they
//                                      are: a retry after a lost reply reads whether they landed
//                                      (flush-units.ts); gone 5 minutes after the last flush
//   <ns>{u:idx}:m:<minute>       SET   tenant ids with data in that minute (for the rollup)
//   <ns>{u:job}:lease / :fence / :minutes / :hours   rollup lease, fencing counter, watermarks
//   <ns>{u:used}                 HASH  "k:<keyId>" | "t:<tokenId>" -> last use, epoch ms
//
// <minute> is the epoch minute (ms / 60000). "" stands for no key / no route.

export const OUTCOME_CODE: Record<Outcome, string> = {
  allowed: "a",
  rejected: "r",
  shadow_rejected: "s",
  degraded: "d",
};

export const CODE_OUTCOME: Record<string, Outcome> = {
  a: "allowed",
  r: "rejected",
  s: "shadow_rejected",
  d: "degraded",
};

export function tenantUsageTag(tenantId: string): string {
  return `{u:${encodeKeyPart(tenantId)}}`;
}

export function secondsKey(ns: string, tenantId: string, minute: number): string {
  return `${ns}${tenantUsageTag(tenantId)}:s:${minute}`;
}

/** A minute's per-second counts, one field per (key, route, outcome): pair-series.ts. */
export function pairsKey(ns: string, tenantId: string, minute: number): string {
  return `${ns}${tenantUsageTag(tenantId)}:p:${minute}`;
}

/** Per-second checks per subject and route, for the what-if replay (subject-series.ts). */
export function subjectSecondsKey(ns: string, tenantId: string, minute: number): string {
  return `${ns}${tenantUsageTag(tenantId)}:j:${minute}`;
}

export function offendersKey(ns: string, tenantId: string, minute: number): string {
  return `${ns}${tenantUsageTag(tenantId)}:o:${minute}`;
}

/** Rejections by (key, route, subject): the offenders of one key or route. */
export function offenderDetailKey(ns: string, tenantId: string, minute: number): string {
  return `${ns}${tenantUsageTag(tenantId)}:x:${minute}`;
}

/** A minute's degraded decisions by cause (the banner's "why"; the counts are also in :p:). */
export function degradedCausesKey(ns: string, tenantId: string, minute: number): string {
  return `${ns}${tenantUsageTag(tenantId)}:c:${minute}`;
}

/** Rejections by (key, route, the limit that denied): the limit tree's attribution. */
export function limitDenialsKey(ns: string, tenantId: string, minute: number): string {
  return `${ns}${tenantUsageTag(tenantId)}:l:${minute}`;
}

/** A field of the limit denials hash; JSON, so no separator can appear inside a part. */
export function limitDenialField(
  keyId: string,
  route: string,
  limit: { name: string; level: string; by: string },
): string {
  return JSON.stringify([keyId, route, limit.name, limit.level, limit.by]);
}

/** A member of the offender detail set; JSON, so no separator can appear inside a part. */
export function offenderDetail(keyId: string, route: string, subject: string): string {
  return JSON.stringify([keyId, route, subject]);
}

/** LIST of the tenant's latest decisions (`which` "d") or denials ("x"), newest first, JSON entries. */
export function recentKey(ns: string, tenantId: string, which: "d" | "x"): string {
  return `${ns}${tenantUsageTag(tenantId)}:r${which}`;
}

/** Each recorder's last flush of a tenant's counts that landed (same MULTI as its counts). */
export function flushMarkKey(ns: string, tenantId: string): string {
  return `${ns}${tenantUsageTag(tenantId)}:f`;
}

export function minuteIndexKey(ns: string, minute: number): string {
  return `${ns}{u:idx}:m:${minute}`;
}

/** Last uses of API keys and service tokens, waiting to be written to PostgreSQL. */
export function lastUsedKey(ns: string): string {
  return `${ns}{u:used}`;
}

export interface JobKeys {
  lease: string;
  fence: string;
  minutes: string;
  hours: string;
  days: string;
  retention: string;
  /** hash: partitions the rollup failed to create (count, last error, when) */
  partitions: string;
}

export function jobKeys(ns: string): JobKeys {
  const base = `${ns}{u:job}`;
  return {
    lease: `${base}:lease`,
    fence: `${base}:fence`,
    minutes: `${base}:minutes`,
    hours: `${base}:hours`,
    days: `${base}:days`,
    retention: `${base}:retention`,
    partitions: `${base}:partitions`,
  };
}

export function secondField(second: number, keyId: string, route: string, outcome: Outcome): string {
  return `${second}|${keyId}|${route}|${OUTCOME_CODE[outcome]}`;
}

export function pairField(keyId: string, route: string, outcome: Outcome): string {
  return `${keyId}|${route}|${OUTCOME_CODE[outcome]}`;
}

/** Splits a pairs-hash field; the route is whatever lies between key id and outcome code. */
export function parsePairField(field: string): Omit<ParsedField, "second"> | null {
  const first = field.indexOf("|");
  const last = field.lastIndexOf("|");
  if (first < 0 || last <= first) return null;
  const outcome = CODE_OUTCOME[field.slice(last + 1)];
  if (!outcome) return null;
  return { keyId: field.slice(0, first), route: field.slice(first + 1, last), outcome };
}

export interface ParsedField {
  second: number;
  keyId: string;
  route: string;
  outcome: Outcome;
}

/** Splits a seconds-hash field; the route is whatever lies between key id and outcome code. */
export function parseSecondField(field: string): ParsedField | null {
  const first = field.indexOf("|");
  const second = field.indexOf("|", first + 1);
  const last = field.lastIndexOf("|");
  if (first < 0 || second < 0 || last <= second) return null;
  const outcome = CODE_OUTCOME[field.slice(last + 1)];
  const sec = Number(field.slice(0, first));
  if (!outcome || !Number.isInteger(sec)) return null;
  return {
    second: sec,
    keyId: field.slice(first + 1, second),
    route: field.slice(second + 1, last),
    outcome,
  };
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export function minuteOf(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}
