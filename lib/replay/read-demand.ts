import "server-only";
import type { RedisClient } from "@/lib/redis";
import type { LimitBy } from "@/lib/shared/limit-types";
import { parseSecondField, secondsKey, subjectSecondsKey } from "@/lib/usage/keys";
import { parseSubjectField } from "@/lib/usage/subject-series";
import type { Demand } from "@/lib/replay/simulate";
import { MAX_FIELDS, MAX_SERIES } from "@/lib/replay/types";

// Reads one tenant's recorded demand for a replay, bounded: minute hashes are sized first
// (HLEN) and read newest first until MAX_FIELDS; owners past MAX_SERIES (the quietest) are
// left out. A subject limit reads the per-subject series, anything else the seconds hashes.

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

async function sizedMinutes(
  client: RedisClient,
  keys: string[],
): Promise<{ read: number[]; fields: number }> {
  const pipe = client.pipeline();
  for (const key of keys) pipe.hlen(key);
  const replies = (await pipe.exec()) ?? [];
  const read: number[] = [];
  let fields = 0;
  for (let i = keys.length - 1; i >= 0; i--) {
    const size = Number(replies[i]?.[1] ?? 0);
    if (fields + size > MAX_FIELDS) break;
    fields += size;
    read.push(i);
  }
  return { read, fields };
}

export async function readDemand(client: RedisClient, ns: string, filter: DemandFilter): Promise<ReadDemand> {
  const minutes: number[] = [];
  for (let m = filter.fromMinute; m < filter.toMinute; m++) minutes.push(m);
  const subjects = filter.by === "subject";
  const keyOf = subjects ? subjectSecondsKey : secondsKey;
  const keys = minutes.map((m) => keyOf(ns, filter.tenantId, m));
  const { read, fields } = await sizedMinutes(client, keys);
  const pipe = client.pipeline();
  for (const i of read) pipe.hgetall(keys[i] as string);
  const replies = (await pipe.exec()) ?? [];
  // one entry per (owner, second, key, route, subject): the outcome split is not demand's
  const merged = new Map<string, Demand>();
  let unattributed = 0;
  replies.forEach(([error, value], j) => {
    if (error) throw error;
    const minute = minutes[read[j] as number] as number;
    for (const [field, raw] of Object.entries((value ?? {}) as Record<string, string>)) {
      const count = Number(raw);
      if (!Number.isSafeInteger(count) || count <= 0) continue;
      const entry = subjects
        ? fromSubject(field, count, minute)
        : fromSeconds(field, count, minute, filter.by);
      if (!entry || (filter.route !== undefined && entry.route !== filter.route)) continue;
      if (!subjects && filter.keyId !== undefined && entry.key !== filter.keyId) continue;
      if (subjects && entry.subject === "") unattributed += count;
      else {
        const id = [entry.owner, entry.second, entry.key, entry.route, entry.subject].join("\u0000");
        const same = merged.get(id);
        if (same) same.count += count;
        else merged.set(id, entry);
      }
    }
  });
  const demand = [...merged.values()];
  return {
    ...busiest(demand),
    fieldsRead: fields,
    minutesSkipped: minutes.length - read.length,
    unattributed,
  };
}

function fromSeconds(field: string, count: number, minute: number, by: LimitBy): Demand | null {
  const f = parseSecondField(field);
  if (!f || (by === "key" && f.keyId === "")) return null; // a check without a key skips a key limit
  const owner = by === "key" ? f.keyId : "";
  return { owner, second: minute * 60 + f.second, count, key: f.keyId, subject: null, route: f.route };
}

function fromSubject(field: string, count: number, minute: number): Demand | null {
  const f = parseSubjectField(field);
  if (!f) return null;
  return {
    owner: f.subject,
    second: minute * 60 + f.second,
    count,
    key: null,
    subject: f.subject,
    route: f.route,
  };
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
