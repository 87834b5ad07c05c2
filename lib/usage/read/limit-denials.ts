import "server-only";
import { z } from "zod";
import { limitDenialsKey, minuteOf } from "@/lib/usage/keys";
import { DenyingLimit } from "@/lib/usage/record/denying-limit";
import type { RowContext } from "@/lib/usage/read/rows";

// The rejections of a recent range by the limit that denied them (written by flush.ts, one
// hash per tenant-minute, kept as long as the per-second data: older minutes have none).
// Exact: every rejection whose answer named a denying limit is counted, none sampled. The
// caller names the tenant it already scoped (usageTenant): only that tenant's keys are read.

export interface LimitDenial extends DenyingLimit {
  /** the key's id, "" for checks without a key */
  keyId: string;
  /** the route pattern the check resolved to, "" for none */
  route: string;
  count: number;
}

const Field = z.tuple([
  z.string(),
  z.string(),
  DenyingLimit.shape.name,
  DenyingLimit.shape.level,
  DenyingLimit.shape.by,
]);

function parseField(field: string): z.infer<typeof Field> | null {
  try {
    const parsed = Field.safeParse(JSON.parse(field));
    return parsed.success ? parsed.data : null;
  } catch {
    // a field not written by flush.ts: skipped
    return null;
  }
}

/** The span of [from, to) the denials cover: none before the kept minutes. */
export function denialsSince(ctx: RowContext, from: number): number {
  return Math.max(from, ctx.now - ctx.secondsRetentionMs);
}

/** Denials of one tenant in [from, to), summed per (key, route, limit). */
export async function limitDenials(
  ctx: RowContext,
  tenantId: string,
  from: number,
  to: number,
): Promise<LimitDenial[]> {
  const first = minuteOf(denialsSince(ctx, from));
  const last = Math.min(minuteOf(to - 1), minuteOf(ctx.now));
  if (first > last) return [];
  const pipe = ctx.client.pipeline();
  for (let m = first; m <= last; m++) pipe.hgetall(limitDenialsKey(ctx.ns, tenantId, m));
  const summed = new Map<string, number>();
  for (const [error, reply] of (await pipe.exec()) ?? []) {
    if (error) throw error;
    for (const [field, count] of Object.entries(reply as Record<string, string>))
      summed.set(field, (summed.get(field) ?? 0) + Number(count));
  }
  return [...summed].flatMap(([field, count]) => {
    const parts = parseField(field);
    if (!parts || !Number.isFinite(count)) return [];
    const [keyId, route, name, level, by] = parts;
    return [{ keyId, route, name, level, by, count }];
  });
}
