// Calendar periods of calendar quotas (docs/algorithms.md, calendar): a day, an ISO week
// (Monday 00:00 to Monday 00:00) or a month, in an IANA time zone. The script cannot know
// time zones, so the period's bounds are computed here and sent as integers. Isomorphic:
// the dashboard shows the same boundaries ("resets Mon 00:00 Europe/Berlin").

export const CALENDAR_PERIODS = ["day", "week", "month"] as const;
export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number];

export const DEFAULT_TIME_ZONE = "UTC";

/** A period's nominal length: what code that wants one window length shows (a month as 31 d). */
export const NOMINAL_PERIOD_MS: Record<CalendarPeriod, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 31 * 86_400_000,
};

/** One period: [start, end) in epoch ms. */
export interface PeriodBounds {
  start: number;
  end: number;
}

const HOUR = 3_600_000;
// Intl also takes offsets ("+01:00"); a quota's zone is a name, whose rules follow its law
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/;
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** Whether `name` is an IANA time zone this runtime knows (a name, not an offset). */
export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !ZONE_NAME.test(name)) return false;
  try {
    formatOf(name);
    return true;
  } catch {
    return false;
  }
}

/** The local calendar date at `t` as y * 10000 + m * 100 + d. */
function localDate(t: number, timeZone: string): number {
  let y = 0;
  let m = 0;
  let d = 0;
  for (const part of formatOf(timeZone).formatToParts(t)) {
    if (part.type === "year") y = Number(part.value);
    else if (part.type === "month") m = Number(part.value);
    else if (part.type === "day") d = Number(part.value);
  }
  return y * 10_000 + m * 100 + d;
}

const dateNumber = (utcMidnight: number): number => {
  const date = new Date(utcMidnight);
  return date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
};

/**
 * The first instant of the local date whose UTC midnight is `wall`: the least t whose local
 * date is that date or later. Found by bisection, not by offset arithmetic, so a day that
 * starts at 01:00 (a DST gap at midnight) starts where the clock really jumps. Offsets lie
 * within -12 h .. +14 h, so the first instant lies in (wall - 15 h, wall + 13 h).
 */
function startOfDate(wall: number, timeZone: string): number {
  const target = dateNumber(wall);
  let lo = wall - 15 * HOUR; // local date before the target
  let hi = wall + 13 * HOUR; // local date the target or later
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDate(mid, timeZone) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The calendar period containing `now` (epoch ms) in `timeZone`. Throws RangeError on an unknown zone. */
export function periodBounds(period: CalendarPeriod, timeZone: string, now: number): PeriodBounds {
  const date = localDate(now, timeZone);
  const y = Math.floor(date / 10_000);
  const m = Math.floor(date / 100) % 100;
  const d = date % 100;
  let first: number;
  let next: number;
  if (period === "day") {
    first = Date.UTC(y, m - 1, d);
    next = Date.UTC(y, m - 1, d + 1);
  } else if (period === "week") {
    // ISO weeks start on Monday: getUTCDay 1 (Sunday 0 is the week's seventh day)
    const back = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
    first = Date.UTC(y, m - 1, d - back);
    next = Date.UTC(y, m - 1, d - back + 7);
  } else {
    first = Date.UTC(y, m - 1, 1);
    next = Date.UTC(y, m, 1);
  }
  return { start: startOfDate(first, timeZone), end: startOfDate(next, timeZone) };
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** How a person reads a limit's reset: "resets daily 00:00 UTC", "resets Mon 00:00 Europe/Berlin". */
export function describeReset(period: CalendarPeriod, timeZone: string): string {
  if (period === "day") return `resets daily 00:00 ${timeZone}`;
  if (period === "week") return `resets ${WEEKDAYS[1]} 00:00 ${timeZone}`;
  return `resets on the 1st 00:00 ${timeZone}`;
}
