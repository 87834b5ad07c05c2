import "server-only";
import type { Principal } from "@/lib/auth/principal";
import { rowContext } from "@/lib/usage/context";
import { minuteOf, offendersKey } from "@/lib/usage/keys";
import type { RowContext } from "@/lib/data/usage/rows";
import { keyNames, usageTenant } from "@/lib/data/usage/scope";
import type { Offender } from "@/lib/usage/types";

// The most rejected keys and subjects over a recent range, merged from the per-minute top-N
// sets in Redis (kept as long as the per-second data; older ranges have none). Approximate
// by design: a member trimmed out of a busy minute loses that minute's count.

export async function topOffenders(
  principal: Principal,
  tenantSlug: string,
  from: number,
  to: number,
  top = 10,
  ctx: RowContext = rowContext(),
): Promise<Offender[]> {
  const tenant = await usageTenant(principal, tenantSlug);
  const first = Math.max(minuteOf(from), minuteOf(ctx.now - ctx.secondsRetentionMs));
  const last = Math.min(minuteOf(to - 1), minuteOf(ctx.now));
  if (first > last) return [];
  const pipe = ctx.client.pipeline();
  for (let m = first; m <= last; m++) pipe.zrevrange(offendersKey(ctx.ns, tenant.id, m), 0, 49, "WITHSCORES");
  const merged = new Map<string, number>();
  for (const [error, reply] of (await pipe.exec()) ?? []) {
    if (error) throw error;
    const list = reply as string[];
    for (let i = 0; i + 1 < list.length; i += 2) {
      const member = list[i] ?? "";
      merged.set(member, (merged.get(member) ?? 0) + Number(list[i + 1]));
    }
  }
  const names = await keyNames(tenant.id);
  return [...merged.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([member, rejected]): Offender => {
      const kind = member.startsWith("k:") ? "key" : "subject";
      const raw = member.slice(2);
      return { kind, name: kind === "key" ? (names.get(raw) ?? raw) : raw, rejected };
    });
}
