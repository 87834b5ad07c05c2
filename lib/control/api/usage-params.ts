import { z } from "zod";
import { parseDuration } from "@/lib/shared/duration";
import { safeText } from "@/lib/shared/safe-text";

// The query of GET /api/admin/usage: times as ISO 8601 or epoch milliseconds, a step of
// 1s..1d as a duration ("1m") or milliseconds. Pure, so unit tests pin every rule, and the
// errors name the field.

export const MIN_STEP_MS = 1_000;
export const MAX_STEP_MS = 86_400_000;
/** More points than a chart can show is a mistake, not a query. */
export const MAX_POINTS = 10_000;
const MAX_SPAN_MS = 400 * MAX_STEP_MS;
const DEFAULT_SPAN_MS = 3_600_000;
const DEFAULT_STEPS = [60_000, 300_000, 3_600_000, MAX_STEP_MS];

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const timeParam = z.string().transform((text, ctx) => {
  const ms = /^\d{1,15}$/.test(text) ? Number(text) : ISO.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) {
    ctx.addIssue({
      code: "custom",
      message: 'must be an ISO 8601 time ("2026-11-22T10:00:00Z") or epoch milliseconds',
    });
    return z.NEVER;
  }
  return ms;
});

const stepParam = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === null || ms < MIN_STEP_MS || ms > MAX_STEP_MS) {
    ctx.addIssue({
      code: "custom",
      message: 'must be a duration from 1s to 1d, e.g. "1m", "1h", or milliseconds',
    });
    return z.NEVER;
  }
  return ms;
});

const name = z
  .string()
  .regex(/^[a-z0-9-]{1,63}$/, { error: 'must be 1 to 63 characters of a-z, 0-9 and "-"' });

export const UsageParams = z
  .strictObject({
    tenant: name.optional(),
    key: name.optional(),
    route: safeText(z.string().min(1).max(2048, { error: "must be at most 2048 characters" })).optional(),
    from: timeParam.optional(),
    to: timeParam.optional(),
    step: stepParam.optional(),
  })
  .transform((raw, ctx) => {
    const to = raw.to ?? Date.now();
    const from = raw.from ?? to - DEFAULT_SPAN_MS;
    if (raw.key !== undefined && raw.tenant === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["key"],
        message: "needs tenant: key names are unique per tenant",
      });
    }
    if (from >= to) ctx.addIssue({ code: "custom", path: ["from"], message: "must be before to" });
    else if (to - from > MAX_SPAN_MS)
      ctx.addIssue({ code: "custom", path: ["from"], message: "must be at most 400 days before to" });
    const span = to - from;
    const stepMs = raw.step ?? DEFAULT_STEPS.find((s) => span / s <= 1_000) ?? MAX_STEP_MS;
    if (span > 0 && Math.ceil(span / stepMs) > MAX_POINTS) {
      ctx.addIssue({
        code: "custom",
        path: ["step"],
        message: `makes more than ${MAX_POINTS} points over this range; use a larger step`,
      });
    }
    return { tenant: raw.tenant, key: raw.key, route: raw.route, fromMs: from, toMs: to, stepMs };
  });
export type UsageParams = z.output<typeof UsageParams>;

/** Bucket starts: `from` aligned down to the step (epoch-aligned), up to `to`. */
export function bucketStarts(fromMs: number, toMs: number, stepMs: number): number[] {
  const starts: number[] = [];
  for (let t = Math.floor(fromMs / stepMs) * stepMs; t < toMs; t += stepMs) starts.push(t);
  return starts;
}
