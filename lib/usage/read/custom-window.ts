import { z } from "zod";

// A custom time range for the usage charts (from/to in the URL, set by the inputs or by
// dragging over the traffic chart). Isomorphic and pure: the page, the live endpoint and
// unit tests share the rules, and every error names its field.

export const MIN_WINDOW_MS = 60_000;
/** the longest range the minute and hour rollups answer without drawing thousands of points */
export const MAX_WINDOW_MS = 31 * 86_400_000;
/** steps a custom range may be drawn at (the preset ranges' steps plus 1 min) */
const STEPS = [5_000, 15_000, 60_000, 300_000, 3_600_000, 6 * 3_600_000] as const;
const MAX_POINTS = 300;

export interface CustomWindow {
  from: number;
  to: number;
}

export type WindowParse =
  | { kind: "none" }
  | { kind: "ok"; window: CustomWindow }
  | { kind: "invalid"; field: "from" | "to"; message: string };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/;

const Time = z
  .string()
  .max(40, { error: "is too long" })
  .transform((text, ctx) => {
    const ms = /^\d{1,15}$/.test(text) ? Number(text) : ISO.test(text) ? Date.parse(text) : NaN;
    if (!Number.isFinite(ms)) {
      ctx.addIssue({
        code: "custom",
        message: 'must be a time like "2026-11-25T10:00:00Z" or epoch milliseconds',
      });
      return z.NEVER;
    }
    return ms;
  });

/** Reads ?from=&to=: both or neither; from before to; 1 minute to 31 days; not after now. */
export function parseCustomWindow(
  from: string | undefined,
  to: string | undefined,
  now: number = Date.now(),
): WindowParse {
  if (from === undefined && to === undefined) return { kind: "none" };
  if (from === undefined) return { kind: "invalid", field: "from", message: "is missing (to is set)" };
  if (to === undefined) return { kind: "invalid", field: "to", message: "is missing (from is set)" };
  const f = Time.safeParse(from);
  if (!f.success)
    return { kind: "invalid", field: "from", message: f.error.issues[0]?.message ?? "is invalid" };
  const t = Time.safeParse(to);
  if (!t.success)
    return { kind: "invalid", field: "to", message: t.error.issues[0]?.message ?? "is invalid" };
  if (f.data >= t.data) return { kind: "invalid", field: "from", message: "must be before to" };
  if (f.data > now) return { kind: "invalid", field: "from", message: "is in the future" };
  if (t.data - f.data < MIN_WINDOW_MS)
    return { kind: "invalid", field: "to", message: "must be at least 1 minute after from" };
  if (t.data - f.data > MAX_WINDOW_MS)
    return { kind: "invalid", field: "from", message: "must be at most 31 days before to" };
  // a range reaching past now ends at now (nothing to draw beyond it)
  return { kind: "ok", window: { from: f.data, to: Math.min(t.data, now + 1) } };
}

/** The finest step that draws the range in at most 300 points (1 min and up before `finestFrom`). */
export function stepForWindow(window: CustomWindow, finestFrom: number): number {
  const span = window.to - window.from;
  // per-second data lives only for the seconds retention: older ranges read minute rows
  const floor = window.from < finestFrom ? 60_000 : 0;
  return STEPS.find((s) => s >= floor && span / s <= MAX_POINTS) ?? 6 * 3_600_000;
}

/** "2026-11-25T10:00:00Z": how a window's ends are written in the URL (second precision). */
export function urlTime(ms: number): string {
  return new Date(Math.floor(ms / 1_000) * 1_000).toISOString().replace(".000Z", "Z");
}
