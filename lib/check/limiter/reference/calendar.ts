import type { LimitRule } from "@/lib/shared/limit-types";
import { periodBounds, type PeriodBounds } from "@/lib/shared/calendar";
import { big, NO_WAIT, type ReferenceAlgorithm, type State } from "@/lib/check/limiter/reference/types";

// calendar exactly as docs/algorithms.md states it: count in the calendar period containing
// now (in the limit's time zone) + cost <= L; the period's end is the reset. One clock here:
// the script's rule for a server clock behind Redis's (the state's later period wins) has
// nothing to model.

// the periods last computed per period and zone: the model asks about the same few often
// (a retry time's search jumps between this period and the next)
const recent = new Map<string, PeriodBounds[]>();
const KEEP = 8;

function boundsOf(rule: LimitRule, now: bigint): PeriodBounds {
  const calendar = rule.calendar;
  if (calendar === undefined) throw new RangeError("a calendar limit needs its period and time zone");
  const at = Number(now);
  const key = `${calendar.period} ${calendar.timeZone}`;
  let list = recent.get(key);
  if (list === undefined) recent.set(key, (list = []));
  const known = list.find((b) => at >= b.start && at < b.end);
  if (known !== undefined) return known;
  const bounds = periodBounds(calendar.period, calendar.timeZone, at);
  if (list.unshift(bounds) > KEEP) list.pop();
  return bounds;
}

/** calendar: count in the period [start, end) containing now + cost <= L. */
export const calendarQuota: ReferenceAlgorithm = (() => {
  const count = (s: State | undefined, rule: LimitRule, now: bigint): bigint =>
    s && s.start === big(boundsOf(rule, now).start) ? (s.count as bigint) : 0n;
  return {
    capacity: (rule) => big(rule.limit),
    look: (s, rule, cost, now) => ({ admits: count(s, rule, now) + cost <= big(rule.limit), wait: NO_WAIT }),
    consume: (s, rule, cost, now) => ({
      start: big(boundsOf(rule, now).start),
      count: count(s, rule, now) + cost,
    }),
    remaining: (s, rule, now) => big(rule.limit) - count(s, rule, now),
    // docs/algorithms.md: "calendar: to the period's end"
    resetMs: (_s, rule, now) => big(boundsOf(rule, now).end) - now,
    full: (s, rule, now) => count(s, rule, now) === 0n,
  };
})();
