import "server-only";
import { z } from "zod";
import type { RedisClient } from "@/lib/shared/redis/redis";
import type { LimitBy } from "@/lib/shared/limit-types";
import { pairsKey, secondsKey, subjectSecondsKey } from "@/lib/usage/keys";
import { fieldsOf, readMinute, type MinuteHash } from "@/lib/usage/store/redis-read";
import { unsparse, type SeriesValue } from "@/lib/usage/subject-series";
import type { Demand } from "@/lib/control/replay/simulate";
import { MAX_FIELDS, MAX_SERIES } from "@/lib/control/replay/types";

// Reads one tenant's recorded demand for a replay, bounded: minute hashes are sized first
// (HLEN; a pairs field holds one pair's minute) and read newest first until MAX_FIELDS;
// owners past MAX_SERIES (the quietest) are left out. A subject limit reads the per-subject
// series, anything else the counts (the pairs hashes and the older seconds hashes).

export interface DemandFilter {
  tenantId: string;
  /** only this key's checks (a limit declared on a key) */
  keyId?: string;
  /** only checks on this route */
  route?: string;
  by: LimitBy;
  fromMinute: number;
  /** exclusive */
  toMinute: number;
}

export interface ReadDemand {
  demand: Demand[];
  fieldsRead: number;
  /** minutes not read because of the field cap (the oldest) */
  minutesSkipped: number;
  series: number;
  seriesLeftOut: number;
  /** subject limits: checks of subjects past the recording cap */
  unattributed: number;
}

/** Per minute (its keys), newest first, until MAX_FIELDS: the indexes of the minutes read. */
async function sizedMinutes(
  client: RedisClient,
  keys: string[][],
  maxFields: number,
): Promise<{ read: number[]; fields: number }> {
  const pipe = client.pipeline();
  for (const key of keys.flat()) pipe.hlen(key);
  const replies = (await pipe.exec()) ?? [];
  const sizes: number[] = [];
  let r = 0;
  for (const minuteKeys of keys) {
    let size = 0;
    for (let k = 0; k < minuteKeys.length; k++) size += Number(replies[r++]?.[1] ?? 0);
    sizes.push(size);
  }
  const read: number[] = [];
  let fields = 0;
  for (let i = keys.length - 1; i >= 0; i--) {
    const size = sizes[i] ?? 0;
    if (fields + size > maxFields) break;
    fields += size;
    read.push(i);
  }
  return { read, fields };
}

export async function readDemand(
  client: RedisClient,
  ns: string,
  filter: DemandFilter,
  maxFields = MAX_FIELDS,
): Promise<ReadDemand> {
  const minutes: number[] = [];
  for (let m = filter.fromMinute; m < filter.toMinute; m++) minutes.push(m);
  const subjects = filter.by === "subject";
  // a subject limit reads the subject series; anything else both layouts of the counts
  const keys = minutes.map((m) =>
    subjects
      ? [subjectSecondsKey(ns, filter.tenantId, m)]
      : [pairsKey(ns, filter.tenantId, m), secondsKey(ns, filter.tenantId, m)],
  );
  const { read, fields } = await sizedMinutes(client, keys, maxFields);
  // one entry per (owner, second, key, route, subject): the outcome split is not demand's
  const merged = new Map<string, Demand>();
  let unattributed = 0;
  const add = (entry: Demand) => {
    if (filter.route !== undefined && entry.route !== filter.route) return;
    if (filter.keyId !== undefined && !subjects && entry.key !== filter.keyId) return;
    const id = [entry.owner, entry.second, entry.key, entry.route, entry.subject].join("\u0000");
    const same = merged.get(id);
    if (same) same.count += entry.count;
    else merged.set(id, entry);
  };
  // a minute a round trip, newest first: Redis runs a pipeline's commands back to back, and
  // checks wait. A pairs field holds a pair's whole minute, so HLEN undercounts the seconds
  // in it: the bound is also kept on what was read, maxFields (second, key, route) entries.
  let minutesRead = 0;
  for (const i of read) {
    if (merged.size >= maxFields) break;
    minutesRead++;
    const minute = minutes[i] as number;
    if (!subjects) {
      const hash = await readMinute(client, ns, filter.tenantId, minute);
      if (hash) addCounts(hash, minute, filter.by, add);
      continue;
    }
    const series = await client.hgetall(subjectSecondsKey(ns, filter.tenantId, minute));
    unattributed += addSeries(series, minute, add);
  }
  const demand = [...merged.values()];
  return {
    ...busiest(demand),
    fieldsRead: fields,
    minutesSkipped: minutes.length - minutesRead,
    unattributed,
  };
}

/** A minute's subject series (one value per app process); returns the others' checks. */
function addSeries(hash: Record<string, string>, minute: number, add: (entry: Demand) => void): number {
  let unattributed = 0;
  for (const raw of Object.values(hash)) {
    const series = parseSeries(raw);
    if (!series) continue;
    for (const [, count] of unsparse(series.o)) unattributed += count;
    for (const [route, subject, counts] of series.s)
      for (const [second, count] of unsparse(counts))
        add({ owner: subject, second: minute * 60 + second, count, key: null, subject, route });
  }
  return unattributed;
}

/** A minute's counts, both layouts (redis-read.ts), as demand of the limit's owners. */
function addCounts(hash: MinuteHash, minute: number, by: LimitBy, add: (entry: Demand) => void): void {
  for (const f of fieldsOf(hash)) {
    if (!Number.isSafeInteger(f.count) || f.count <= 0) continue;
    if (by === "key" && f.keyId === "") continue; // a check without a key skips a key limit
    const owner = by === "key" ? f.keyId : "";
    add({
      owner,
      second: minute * 60 + f.second,
      count: f.count,
      key: f.keyId,
      subject: null,
      route: f.route,
    });
  }
}

const seriesShape = z.object({ o: z.string(), s: z.array(z.unknown()) });

/** One process's value of a minute (subject-series.ts); null when it is not one. */
function parseSeries(raw: string): SeriesValue | null {
  try {
    const parsed = seriesShape.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    const value = parsed.data;
    const s = value.s.filter(
      (e): e is [string, string, string] =>
        Array.isArray(e) && e.length === 3 && e.every((part) => typeof part === "string"),
    );
    return { s, o: value.o };
  } catch {
    return null;
  }
}

/** Keeps the MAX_SERIES busiest owners: the replay's CPU is bounded by owners x seconds. */
function busiest(demand: Demand[]): { demand: Demand[]; series: number; seriesLeftOut: number } {
  const totals = new Map<string, number>();
  for (const d of demand) totals.set(d.owner, (totals.get(d.owner) ?? 0) + d.count);
  if (totals.size <= MAX_SERIES) return { demand, series: totals.size, seriesLeftOut: 0 };
  const kept = new Set(
    [...totals.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_SERIES)
      .map(([owner]) => owner),
  );
  return {
    demand: demand.filter((d) => kept.has(d.owner)),
    series: MAX_SERIES,
    seriesLeftOut: totals.size - MAX_SERIES,
  };
}
