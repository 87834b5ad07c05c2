// Dates as the console shows them, in the reader's time zone (account settings), always
// naming it: "2025-01-31 14:05 UTC", "2025-01-31 23:05 GMT+9". Isomorphic, no React.

/** Whether `zone` is a time zone this runtime knows (an IANA name such as "Europe/Paris", or UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Every zone offered in account settings: UTC first, then the runtime's IANA names. */
export function timeZoneNames(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string, seconds: boolean): Intl.DateTimeFormat {
  const id = `${zone} ${seconds}`;
  let format = formats.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      ...(seconds ? { second: "2-digit" as const } : {}),
      timeZoneName: "short",
    });
    formats.set(id, format);
  }
  return format;
}

/** The parts of `date` in `zone`: date, time (hh:mm, or hh:mm:ss) and the zone's short name then. */
export function datePartsIn(
  date: Date,
  zone: string,
  seconds = false,
): { day: string; time: string; zone: string } {
  const parts: Record<string, string> = {};
  for (const part of formatIn(zone, seconds).formatToParts(date)) parts[part.type] = part.value;
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    time: seconds ? `${parts.hour}:${parts.minute}:${parts.second}` : `${parts.hour}:${parts.minute}`,
    zone: zone === "UTC" ? "UTC" : (parts.timeZoneName ?? zone),
  };
}

type When = Date | string | number | null | undefined;

function toDate(when: When): Date | null {
  if (when === null || when === undefined) return null;
  const date = when instanceof Date ? when : new Date(when);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date as the dashboard shows it: "2025-01-31 14:05 UTC" (in `zone`), or a dash for none. */
export function formatDate(when: When, zone = "UTC", seconds = false): string {
  const date = toDate(when);
  if (!date) return "—";
  const parts = datePartsIn(date, zone, seconds);
  return `${parts.day} ${parts.time} ${parts.zone}`;
}

/** To the second, for logs: "2025-01-31 14:05:09 UTC" (".123" with milliseconds), in `zone`. */
export function formatDateSeconds(when: When, withMs = false, zone = "UTC"): string {
  const date = toDate(when);
  if (!date) return "—";
  const parts = datePartsIn(date, zone, true);
  const ms = withMs ? `.${String(date.getUTCMilliseconds()).padStart(3, "0")}` : "";
  return `${parts.day} ${parts.time}${ms} ${parts.zone}`;
}

/** The time of day only, for rows of one day: "14:05 UTC" ("14:05:09 UTC" with seconds), in `zone`. */
export function formatTimeOfDay(when: When, withSeconds = false, zone = "UTC"): string {
  const date = toDate(when);
  if (!date) return "—";
  const parts = datePartsIn(date, zone, withSeconds);
  return `${parts.time} ${parts.zone}`;
}
