import { z } from "zod";
import { safeText } from "@/lib/shared/safe-text";

// The query parameters of GET /api/admin/usage and the dashboard's stream: times as ISO or
// epoch ms, step as ms or a duration ("1s", "5m", "1h", "1d"), 1 s .. 1 d.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const time = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const ms = typeof value === "number" || /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) {
    ctx.addIssue({ code: "custom", message: "must be an ISO time or epoch milliseconds" });
    return z.NEVER;
  }
  return ms;
});

const step = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(String(value));
  const ms = match ? Number(match[1]) * (UNIT_MS[match[2] ?? "ms"] ?? 1) : NaN;
  if (!(ms >= 1_000 && ms <= 86_400_000)) {
    ctx.addIssue({ code: "custom", message: "must be between 1s and 1d (e.g. 10s, 5m, 1h or ms)" });
    return z.NEVER;
  }
  return ms;
});

export const MAX_POINTS = 5_000;

export const UsageQueryInput = z
  .object({
    tenant: safeText(z.string().min(1).max(64)),
    key: safeText(z.string().min(1).max(128)).optional(),
    route: safeText(z.string().min(1).max(512)).optional(),
    from: time.optional(),
    to: time.optional(),
    step: step.optional(),
  })
  .transform((q) => {
    const to = q.to ?? Date.now();
    const from = q.from ?? to - 3_600_000;
    const stepMs = q.step ?? defaultStep(to - from);
    return { tenant: q.tenant, key: q.key, route: q.route, from, to, stepMs };
  })
  .refine((q) => q.from < q.to, { message: "from must be before to", path: ["from"] })
  .refine((q) => (q.to - q.from) / q.stepMs <= MAX_POINTS, {
    message: `at most ${MAX_POINTS} points: use a larger step or a shorter range`,
    path: ["step"],
  });

export type UsageQuery = z.output<typeof UsageQueryInput>;

/** About 120-360 points for any range, at a step the stores hold. */
export function defaultStep(rangeMs: number): number {
  const steps = [
    1_000, 5_000, 10_000, 15_000, 30_000, 60_000, 300_000, 900_000, 3_600_000, 21_600_000, 86_400_000,
  ];
  return steps.find((s) => rangeMs / s <= 360) ?? 86_400_000;
}
