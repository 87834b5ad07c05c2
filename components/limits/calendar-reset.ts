import type { LimitFields } from "@/lib/control/config/document";
import { CALENDAR_PERIODS, DEFAULT_TIME_ZONE, describeReset, isTimeZone } from "@/lib/shared/calendar";
import type { FormValues } from "@/components/limits/limit-form-values";

// The editor's line under a calendar quota's period and zone: when it resets, as the check
// path computes it ("resets Mon 00:00 Europe/Berlin"). No clock read: the same text renders
// on the server and in the browser.

export function calendarResetLine(values: FormValues, inherited: LimitFields | null): string {
  const period = CALENDAR_PERIODS.find((p) => p === (values.period || inherited?.period));
  if (period === undefined) return "Choose a period: day, ISO week (from Monday) or month.";
  const typed = values.timeZone.trim();
  const zone = typed || inherited?.timeZone;
  if (zone !== undefined && !isTimeZone(zone)) return `${zone} is not an IANA time zone name.`;
  if (zone === undefined)
    return `${describeReset(period, "the tenant's time zone")} (${DEFAULT_TIME_ZONE} when it sets none)`;
  return describeReset(period, zone);
}
