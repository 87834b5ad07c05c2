import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { rowContext } from "@/lib/usage/read/context";
import { minuteOf, offenderDetailKey, offendersKey } from "@/lib/usage/keys";
import type { RowContext } from "@/lib/usage/read/rows";
import { keyNames, usageTenant } from "@/lib/control/data/usage/scope";
import type { Offender } from "@/lib/usage/types";

// The most rejected keys and subjects over a recent range, merged from the per-minute top-N
// sets in Redis (kept as long as the per-second data; older ranges have none). Approximate
// by design: a member trimmed out of a busy minute loses that minute's count.

/** Narrows the offenders to one key and/or route (read from the per-key-route detail sets). */
export interface OffenderFilter {
  keyId?: string;
  route?: string;
}

export const PER_MINUTE = 50;
const DETAIL_PER_MINUTE = 200;

export async function mergeMinutes(
  ctx: RowContext,
  keyOf: (minute: number) => string,
  perMinute: number,
  from: number,
  to: number,
): Promise<Map<string, number>> {
  const merged = new Map<string, number>();
  const first = Math.max(minuteOf(from), minuteOf(ctx.now - ctx.secondsRetentionMs));
  const last = Math.min(minuteOf(to - 1), minuteOf(ctx.now));
  if (first > last) return merged;
  const pipe = ctx.client.pipeline();
  for (let m = first; m <= last; m++) pipe.zrevrange(keyOf(m), 0, perMinute - 1, "WITHSCORES");
  for (const [error, reply] of (await pipe.exec()) ?? []) {
    if (error) throw error;
    const list = reply as string[];
    for (let i = 0; i + 1 < list.length; i += 2) {
      const member = list[i] ?? "";
      merged.set(member, (merged.get(member) ?? 0) + Number(list[i + 1]));
    }
  }
  return merged;
}

function parseDetail(member: string): [string, string, string] | null {
  try {
    const value: unknown = JSON.parse(member);
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === "string"))
      return [value[0] as string, value[1] as string, value[2] as string];
  } catch {
    // a member not written by flush.ts: skipped
  }
  return null;
}

/** Key and subject totals of the detail sets that match the filter ("k:<id>" / "s:<subject>"). */
function filtered(details: Map<string, number>, filter: OffenderFilter): Map<string, number> {
  const out = new Map<string, number>();
  const add = (member: string, n: number) => out.set(member, (out.get(member) ?? 0) + n);
  for (const [member, count] of details) {
    const parts = parseDetail(member);
    if (!parts) continue;
    const [keyId, route, subject] = parts;
    if (filter.keyId !== undefined && keyId !== filter.keyId) continue;
    if (filter.route !== undefined && route !== filter.route) continue;
    if (keyId) add(`k:${keyId}`, count);
    if (subject) add(`s:${subject}`, count);
  }
  return out;
}

export async function topOffenders(
  principal: Principal,
  tenantSlug: string,
  from: number,
  to: number,
  top = 10,
  ctx: RowContext = rowContext(),
  filter?: OffenderFilter,
): Promise<Offender[]> {
  const tenant = await usageTenant(principal, tenantSlug);
  const narrowed = filter !== undefined && (filter.keyId !== undefined || filter.route !== undefined);
  const merged = narrowed
    ? filtered(
        await mergeMinutes(ctx, (m) => offenderDetailKey(ctx.ns, tenant.id, m), DETAIL_PER_MINUTE, from, to),
        filter,
      )
    : await mergeMinutes(ctx, (m) => offendersKey(ctx.ns, tenant.id, m), PER_MINUTE, from, to);
  if (merged.size === 0) return [];
  const names = await keyNames(tenant.id);
  return [...merged.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([member, rejected]): Offender => {
      const kind = member.startsWith("k:") ? "key" : "subject";
      const raw = member.slice(2);
      return { kind, name: kind === "key" ? (names.get(raw) ?? raw) : raw, rejected };
    });
}
