import { parseDuration } from "@/lib/shared/duration";
import { DEFAULT_SYNC_EVERY_MS, type Consistency } from "@/lib/shared/limit-types";
import type { LimitFields } from "@/lib/control/config/document";

// The error a local limit accepts, as the editor shows it: with N servers behind round-robin
// and a sync every I, each server may admit what it sees for up to I before it learns the
// others' counts, so the limit can be passed by about (N - 1) x rate x I (docs/algorithms.md,
// "Local limits"). `rate` here is the limit's own rate: traffic k times faster passes it by
// k times more.

export interface LocalSettingView {
  consistency: Consistency;
  syncEveryMs: number;
}

/** The effective consistency and syncEvery of the form (its fields over the inherited ones). */
export function localSettingOf(
  values: { consistency: string; syncEvery: string },
  inherited: LimitFields | null,
): LocalSettingView {
  const consistency = (values.consistency || inherited?.consistency || "exact") as Consistency;
  const typed = values.syncEvery.trim() === "" ? null : parseDuration(values.syncEvery.trim());
  return { consistency, syncEveryMs: typed ?? inherited?.syncEveryMs ?? DEFAULT_SYNC_EVERY_MS };
}

/** (N - 1) x (limit / window) x I, in requests (cost units), rounded up. */
export function overAdmissionBound(
  servers: number,
  limit: number,
  windowMs: number,
  syncEveryMs: number,
): number {
  if (servers <= 1) return 0;
  return Math.ceil((servers - 1) * (limit / windowMs) * syncEveryMs);
}
