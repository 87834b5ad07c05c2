import "server-only";
import type { LimitSpec } from "@/lib/check/limiter/types";
import type { CheckShape } from "@/lib/check/shape-types";
import { calendarUntil } from "@/lib/check/limiter/calendar";
import { specArgs } from "@/lib/check/limiter/spec-args";
import { wallNow } from "@/lib/shared/wall-clock";

// A shape's script arguments are built once (check-shapes.ts), but a calendar limit's hold
// only until its period ends (lib/check/limiter/calendar.ts): a shape keeps the instant its
// arguments stop holding, and a check past it builds them again for the period it is in.
// A shape without calendar limits keeps Infinity and never looks at the clock.

/** The earliest end of its calendar limits' current periods, or Infinity when it has none. */
export function calendarUntilOf(specs: readonly LimitSpec[], now: number = wallNow()): number {
  let until = Infinity;
  for (const spec of specs) {
    if (spec.rule.algorithm === "calendar") until = Math.min(until, calendarUntil(spec.rule, now));
  }
  return until;
}

/** Puts the shape's calendar limits in the period containing now, when one has ended. */
export function refreshCalendar(shape: CheckShape, now: number = wallNow()): void {
  if (now < shape.calendarUntil || shape.rules.length === 0) return;
  // a new array: checks already sent keep theirs, and local plans see it changed
  shape.rules = shape.specs.map((spec) => specArgs(spec, now));
  shape.calendarUntil = calendarUntilOf(shape.specs, now);
}
