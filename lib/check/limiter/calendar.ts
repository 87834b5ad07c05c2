import "server-only";
import type { LimitRule } from "@/lib/shared/limit-types";
import type { AlgorithmCodec, RuleInts } from "@/lib/check/limiter/types";
import { ruleInts } from "@/lib/check/limiter/rule-layout";
import { periodBounds, type CalendarPeriod, type PeriodBounds } from "@/lib/shared/calendar";
import { wallNow } from "@/lib/shared/wall-clock";

// calendar: a fixed window whose bounds are the calendar period containing now (a day, an
// ISO week, a month) in the limit's time zone. Script part: lua/algorithms/calendar.lua,
// which gets the bounds as W and B. Computing a period costs Intl calls (about 1 ms), so the
// bounds are kept per period and zone and per rule, and computed again only once now leaves
// them: a check of a calendar quota costs a WeakMap lookup and two comparisons.

interface Built {
  limit: number;
  shadow: boolean;
  period: CalendarPeriod;
  timeZone: string;
  bounds: PeriodBounds;
  args: RuleInts;
}

const built = new WeakMap<LimitRule, Built>();
// `period zone` -> the period last computed; at most three per zone the config names
const byZone = new Map<string, PeriodBounds>();

const within = (bounds: PeriodBounds, now: number): boolean => now >= bounds.start && now < bounds.end;

/** The period containing `now` (ms) in `timeZone`, from the cache when still current. */
export function currentPeriod(period: CalendarPeriod, timeZone: string, now: number): PeriodBounds {
  const key = `${period} ${timeZone}`;
  let bounds = byZone.get(key);
  if (bounds === undefined || !within(bounds, now)) {
    bounds = periodBounds(period, timeZone, now);
    byZone.set(key, bounds);
  }
  return bounds;
}

/** A calendar rule's script integers at `now`: code 7, L, the period's start and end. */
export function calendarArgs(rule: LimitRule, now: number = wallNow()): RuleInts {
  const calendar = rule.calendar;
  if (calendar === undefined) throw new RangeError("a calendar limit needs its period and time zone");
  const shadow = rule.mode === "shadow";
  const b = built.get(rule);
  if (
    b !== undefined &&
    within(b.bounds, now) &&
    b.limit === rule.limit &&
    b.shadow === shadow &&
    b.period === calendar.period &&
    b.timeZone === calendar.timeZone
  )
    return b.args;
  if (!Number.isSafeInteger(rule.limit) || rule.limit < 1)
    throw new RangeError(`limit must be an integer >= 1, got ${rule.limit}`);
  const bounds = currentPeriod(calendar.period, calendar.timeZone, now);
  const args = ruleInts({
    algorithm: "calendar",
    L: rule.limit,
    W: bounds.start,
    B: bounds.end,
    shadow,
    maxDelay: -1,
  });
  built.set(rule, {
    limit: rule.limit,
    shadow,
    period: calendar.period,
    timeZone: calendar.timeZone,
    bounds,
    args,
  });
  return args;
}

/** Until when (epoch ms) a calendar rule's integers built at `now` stay what calendarArgs gives. */
export function calendarUntil(rule: LimitRule, now: number): number {
  calendarArgs(rule, now);
  return (built.get(rule) as Built).bounds.end;
}

export const calendarQuota: AlgorithmCodec = {
  algorithm: "calendar",
  tag: "c",
  args: calendarArgs,
};
