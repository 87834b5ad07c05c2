import { formatTimeOfDay } from "@/lib/shared/format-date";

// The overview's note under the tenants: what their traffic column counts and up to when,
// in the reader's time zone (named), and how often the list is read again.

export function TrafficNote({ until, zone = "UTC" }: { until: Date | null; zone?: string }) {
  return (
    <p className="muted small" data-testid="traffic-note">
      Traffic is each tenant&apos;s last 15 rolled-up minutes
      {until ? `, up to ${formatTimeOfDay(until, false, zone)}` : ""}; the list is re-read every 15 s.
    </p>
  );
}
