/** A date as the dashboard shows it: "2025-01-31 14:05 UTC", or a dash for none. */
export function formatDate(date: Date | null): string {
  return date ? date.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "—";
}
