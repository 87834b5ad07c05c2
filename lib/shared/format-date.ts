// Dates and times as the console shows them: UTC, to the minute unless asked for seconds,
// always with "UTC" so nobody takes them for local time. Isomorphic.

type When = Date | string | number | null | undefined;

function toDate(when: When): Date | null {
  if (when === null || when === undefined) return null;
  const date = when instanceof Date ? when : new Date(when);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date as the dashboard shows it: "2025-01-31 14:05 UTC", or a dash for none. */
export function formatDate(when: When): string {
  const date = toDate(when);
  return date ? date.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "—";
}

/** To the second, for logs: "2025-01-31 14:05:09 UTC" (".123" with milliseconds). */
export function formatDateSeconds(when: When, withMs = false): string {
  const date = toDate(when);
  return date
    ? date
        .toISOString()
        .replace("T", " ")
        .slice(0, withMs ? 23 : 19) + " UTC"
    : "—";
}

/** The time of day only, for rows of one day: "14:05 UTC" ("14:05:09 UTC" with seconds). */
export function formatTimeOfDay(when: When, withSeconds = false): string {
  const date = toDate(when);
  return date ? date.toISOString().slice(11, withSeconds ? 19 : 16) + " UTC" : "—";
}
