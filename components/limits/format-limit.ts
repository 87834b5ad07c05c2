import type { LimitFields } from "@/lib/control/config/document";
import { formatDuration } from "@/lib/shared/duration";

// One line per limit, as an ops person reads it: "100 / 1s · burst 200 · gcra · per key".

export function describeRule(f: LimitFields): string {
  if (f.disabled) return "disabled";
  const parts = [
    f.algorithm === "calendar" && f.limit !== undefined && f.period !== undefined
      ? `${f.limit.toLocaleString("en")} / ${f.period}${f.timeZone ? ` (${f.timeZone})` : ""}`
      : f.limit !== undefined && f.windowMs !== undefined
        ? `${f.limit.toLocaleString("en")} / ${formatDuration(f.windowMs)}`
        : null,
    f.burst !== undefined ? `burst ${f.burst.toLocaleString("en")}` : null,
    f.algorithm ?? null,
    f.by ? `per ${f.by}` : null,
    f.action === "delay"
      ? `delay up to ${f.maxDelayMs !== undefined ? formatDuration(f.maxDelayMs) : "0ms"}`
      : null,
    f.mode === "shadow" ? "shadow" : null,
    f.onStoreFailure === "closed" ? "fails closed" : null,
    f.consistency === "local" ? `local, sync ${formatDuration(f.syncEveryMs ?? 100)}` : null,
    f.penalty ? penaltyText(f.penalty) : null,
  ];
  return parts.filter(Boolean).join(" · ");
}

/** "penalty 5m" or "penalty 5m, x2 up to 1h within 1d" (docs/algorithms.md, Penalties). */
export function penaltyText(p: NonNullable<LimitFields["penalty"]>): string {
  const block = `penalty ${formatDuration(p.blockMs)}`;
  if (p.grow <= 1) return block;
  return `${block}, x${p.grow} up to ${formatDuration(p.maxMs)} within ${formatDuration(p.windowMs)}`;
}
